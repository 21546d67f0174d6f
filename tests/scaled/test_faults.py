"""The scaled site while its database or Redis is down, and after they come back.

The services here are the test's own (a scratch PostgreSQL cluster and Redis server on
free ports), stopped like a crash and started again; the machine's are never touched.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

import pytest
from playwright.sync_api import Page, expect

from rcxsite.content import routes
from rcxsite.platform.outages import RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE
from rcxsite.state import messages as msg
from tests.support.accounts_ui import (
    PASSWORD,
    expect_signed_in_at_home,
    new_customer,
    submit_login,
    unique_email,
)
from tests.support.browser import open_tab
from tests.support.plain_http import bearer_for, request
from tests.support.scaled_site import FAULT_REPORT, ScaledSite, SharedSite, running_scaled_site
from tests.support.scratch_services import ScratchPostgres, ScratchRedis
from tests.support.smtp import Mailbox

# Longer than any server-side timeout (rcxsite/platform/outages.py): a request that hangs
# fails here.
CLIENT_TIMEOUT_S = 30


Scratch = TypeVar("Scratch", ScratchPostgres, ScratchRedis)


def _running(service: Scratch) -> Iterator[Scratch]:
    """The service started, for as long as the caller holds it; then removed, whatever happened."""
    try:
        service.start()
        yield service
    finally:
        service.remove()


@pytest.fixture(scope="module")
def scratch_postgres() -> Iterator[ScratchPostgres]:
    yield from _running(ScratchPostgres())


@pytest.fixture(scope="module")
def scratch_redis() -> Iterator[ScratchRedis]:
    yield from _running(ScratchRedis())


@pytest.fixture(scope="module")
def fault_site(
    tmp_path_factory: pytest.TempPathFactory,
    scaled_mailbox: Mailbox,
    scaled_port: int,
    scratch_postgres: ScratchPostgres,
    scratch_redis: ScratchRedis,
    shared_scaled_site: SharedSite,
) -> Iterator[ScaledSite]:
    FAULT_REPORT.unlink(missing_ok=True)  # this run's figures only
    shared_scaled_site.stop()  # it holds the port (a module that ran before used it)
    with running_scaled_site(
        port=scaled_port,
        data_dir=tmp_path_factory.mktemp("faults"),
        mailbox=scaled_mailbox,
        database_url=scratch_postgres.url,
        redis_url=scratch_redis.url,
        workers=2,
    ) as site:
        yield site


@pytest.fixture
def tab(browser, fault_site: ScaledSite) -> Iterator[Page]:
    with open_tab(browser, fault_site) as page:
        yield page


def _note(name: str, seconds: float) -> None:
    """Figures for the report (test-artifacts/faults.json); nothing asserts on them."""
    figures = json.loads(FAULT_REPORT.read_text()) if FAULT_REPORT.exists() else {}
    figures[name] = round(seconds * 1000, 1)
    FAULT_REPORT.parent.mkdir(exist_ok=True)
    FAULT_REPORT.write_text(json.dumps(figures, indent=2))


def _unavailable(
    site: ScaledSite,
    path: str,
    *,
    method: str = "GET",
    body: dict | None = None,
    headers: dict[str, str] | None = None,
    outage: str = "",
) -> None:
    started = time.monotonic()
    status, answer_headers, answer = request(
        site.url + "/api/v1" + path,
        method=method,
        body=body,
        headers=headers,
        timeout=CLIENT_TIMEOUT_S,
    )
    _note(f"{outage} down: {method} {path} answered 503 in ms", time.monotonic() - started)
    assert status == 503, answer
    assert json.loads(answer) == {"status": 503, "message": UNAVAILABLE_MESSAGE, "data": None}
    assert answer_headers["Retry-After"] == str(RETRY_AFTER_SECONDS)


@contextmanager
def _outage(
    service: Scratch, name: str, site: ScaledSite, tab: Page
) -> Iterator[tuple[str, dict[str, str]]]:
    """Yields a new customer's address and the Authorization header of a session of theirs,
    with `service` down (stopped as in a crash) until the block ends and the tab on the log-in
    page. Down either service, a login is answered 503: it checks the password in PostgreSQL
    and counts against limits kept in Redis (without them, no password check)."""
    email = new_customer(site.url, f"{name.lower()}-outage")
    bearer = bearer_for(site.url, email, PASSWORD)
    tab.goto(routes.LOG_IN.path)
    service.stop()
    try:
        _unavailable(
            site,
            "/Auth/Login",
            method="POST",
            outage=name,
            body={"UserName": email, "Password": PASSWORD},
        )
        yield email, bearer
    finally:
        service.start()


def test_with_postgresql_down_the_site_says_so_and_recovers_by_itself(
    fault_site: ScaledSite, scratch_postgres: ScratchPostgres, tab: Page
) -> None:
    with _outage(scratch_postgres, "PostgreSQL", fault_site, tab) as (email, bearer):
        _unavailable(fault_site, "/User/Me", headers=bearer, outage="PostgreSQL")
        _unavailable(
            fault_site,
            "/User/CreateCustomer",
            method="POST",
            outage="PostgreSQL",
            body={
                "UserName": "Outage Customer",
                "EmailAddress": unique_email("pg-new"),
                "MobileNumber": "0123456789",
                "Password": PASSWORD,
                "CompanyName": "Acme",
                "Location": "Leeds",
            },
        )
        assert request(fault_site.url + "/about")[0] == 200  # pages come from nginx

        started = time.monotonic()
        submit_login(tab, email)
        expect(tab.get_by_text(msg.LOGIN_BROKEN)).to_be_visible()
        _note("PostgreSQL down: log-in screen showed its text in ms", time.monotonic() - started)
        tab.goto(routes.FORGOT_PASSWORD.path)
        forgot = tab.get_by_role("form", name="Request a reset link")
        forgot.get_by_label("Email").fill(email)
        forgot.get_by_role("button", name="Send reset link").click()
        expect(tab.get_by_role("alertdialog")).to_contain_text(msg.SOMETHING_WENT_WRONG)
        tab.get_by_role("alertdialog").get_by_role("button", name="OK").click()

    # Nothing restarted: the same session, the same tab.
    started = time.monotonic()
    status, _, body = request(fault_site.url + "/api/v1/User/Me", headers=bearer)
    _note("PostgreSQL back: first API answer in ms", time.monotonic() - started)
    assert status == 200 and json.loads(body)["data"]["emailAddress"] == email
    tab.goto(routes.LOG_IN.path)
    submit_login(tab, email)
    expect_signed_in_at_home(tab)


def test_with_redis_down_the_site_says_so_and_recovers_by_itself(
    fault_site: ScaledSite, scratch_redis: ScratchRedis, tab: Page
) -> None:
    with _outage(scratch_redis, "Redis", fault_site, tab) as (email, bearer):
        # Sessions are in PostgreSQL: a signed-in customer still reads the account.
        status, _, body = request(
            fault_site.url + "/api/v1/User/Me", headers=bearer, timeout=CLIENT_TIMEOUT_S
        )
        assert status == 200, body
        # The screens keep their state in Redis: Reflex cannot even start the handler.
        started = time.monotonic()
        submit_login(tab, email)
        notice = tab.get_by_role("alert").filter(has_text=msg.LOGIN_BROKEN)
        # The Redis client's own retries with back-off come first (several seconds).
        expect(notice).to_be_visible(timeout=30_000)
        _note("Redis down: log-in screen showed its text in ms", time.monotonic() - started)

    started = time.monotonic()
    status, _, _ = request(
        fault_site.url + "/api/v1/Auth/Login",
        method="POST",
        body={"UserName": email, "Password": PASSWORD},
    )
    _note("Redis back: first login answered in ms", time.monotonic() - started)
    assert status == 200
    submit_login(tab, email)
    expect_signed_in_at_home(tab)
    expect(notice).to_have_count(0)
