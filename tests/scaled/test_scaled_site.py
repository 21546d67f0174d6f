"""The site behind nginx with three workers on PostgreSQL and Redis (`make run-scaled`)."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, text

from rcxsite.components.connection import CONNECTION_LOST
from rcxsite.content import routes
from tests.support import cv_files
from tests.support.accounts_ui import (
    PASSWORD,
    RESET_LINK,
    create_customer,
    expect_signed_in_at_home,
    header_action,
    new_customer,
    open_registration,
    register,
    submit_login,
    unique_email,
)
from tests.support.browser import CHROME, NOT_DRIVEN, expect_shown, open_tab, watch_texts
from tests.support.load import run_load
from tests.support.plain_http import bearer_for
from tests.support.plain_http import request as _request
from tests.support.scaled_site import LOAD_REPORT, ScaledSite
from tests.support.smtp import Mailbox
from tests.support.waiting import wait_for

LOAD_SECONDS = 60
LOAD_VISITORS = 200
LOAD_CUSTOMERS = 20


@pytest.fixture
def scaled_page(browser, scaled_site: ScaledSite) -> Iterator[Page]:
    with open_tab(browser, scaled_site) as tab:
        yield tab


def test_nginx_serves_pages_with_their_policy_and_built_files_precompressed(
    scaled_site: ScaledSite,
) -> None:
    for path in ("/", "/about", "/about/"):
        status, headers, body = _request(scaled_site.url + path)
        assert status == 200 and b"<h1" in body, path
        assert headers["Server"].startswith("nginx")
        policy = headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "'sha256-" in policy, path
        assert "frame-ancestors 'none'" in policy
        assert headers["X-Content-Type-Options"] == "nosniff"
    script = re.search(rb'(?:src|href)="(/assets/[^"]+\.js)"', body)
    assert script
    status, headers, _ = _request(
        scaled_site.url + script.group(1).decode(), headers={"Accept-Encoding": "br, gzip"}
    )
    assert status == 200 and headers["Content-Encoding"] == "br"
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert _request(scaled_site.url + "/no-such-page")[0] == 404
    assert _request(scaled_site.url + routes.reset_password_path("abc123"))[0] == 200


def test_the_rest_api_works_through_nginx(scaled_site: ScaledSite) -> None:
    email = new_customer(scaled_site.url, "scaled-api")
    bearer = bearer_for(scaled_site.url, email, PASSWORD)
    status, headers, body = _request(scaled_site.url + "/api/v1/User/Me", headers=bearer)
    assert status == 200 and json.loads(body)["data"]["emailAddress"] == email
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert (
        _request(scaled_site.url + "/api/v1/Auth/Logout", method="POST", headers=bearer)[0] == 200
    )
    assert _request(scaled_site.url + "/api/v1/User/Me", headers=bearer)[0] == 401


def _post(url: str, size: int) -> int:
    """The status of a POST of `size` bytes (a refusal may close the connection early)."""
    outgoing = urllib.request.Request(
        url, data=b"x" * size, method="POST", headers={"Content-Type": "application/octet-stream"}
    )
    try:
        with urllib.request.urlopen(outgoing, timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_only_the_cv_upload_takes_a_body_past_64_kb_through_nginx(scaled_site: ScaledSite) -> None:
    # A 2 MB body passes nginx to the upload endpoint, which refuses it for want of its
    # headers (400) before reading it; nginx, still streaming the body, may see the worker
    # close first (502). Either way not nginx's 413.
    assert _post(scaled_site.url + "/_upload", 2 * 1024 * 1024) in (400, 502)
    # More than a 10 MB CV and its fields: refused before a worker reads it.
    assert _post(scaled_site.url + "/_upload", 11 * 1024 * 1024) == 413
    # Everywhere else the site's 64 KB limit stands.
    assert _post(scaled_site.url + "/api/v1/Auth/Login", 100 * 1024) == 413


def test_an_application_with_a_cv_goes_through_nginx_to_postgresql(
    scaled_page: Page, scaled_site: ScaledSite
) -> None:
    """The upload reaches whichever worker nginx picks, the tab's state is in Redis, and
    the CV is kept in the database every host reads (the default file store)."""
    email = f"scaled-cv-{uuid.uuid4().hex[:8]}@example.org"
    scaled_page.goto("/careers/devops-engineer")
    form = scaled_page.get_by_role("form", name="Apply for DevOps Engineer")
    form.get_by_label("Name").fill("Scaled Applicant")
    form.get_by_label("Email").fill(email)
    form.get_by_label("Where you are based").fill("Leeds")
    scaled_page.locator("#apply input[type=file]").set_input_files(
        files=[
            {
                "name": "cv.pdf",
                "mimeType": "application/pdf",
                "buffer": cv_files.pdf(size=3 * 1024 * 1024),
            }
        ]
    )
    scaled_page.get_by_label(re.compile("I agree that RCX keeps")).check()
    scaled_page.get_by_role("button", name="Send my application").click()
    expect(
        scaled_page.get_by_role("heading", name="Thank you! Your application has been received.")
    ).to_be_visible()
    engine = create_engine(scaled_site.database_url)
    try:
        with engine.connect() as connection:
            size = connection.execute(
                text(
                    "SELECT f.size FROM job_application a JOIN stored_file f ON f.key = a.cv_key"
                    " WHERE a.email = :email"
                ),
                {"email": email},
            ).scalar_one()
    finally:
        engine.dispose()
    assert size == 3 * 1024 * 1024


def test_reset_mails_are_limited_across_workers(
    scaled_site: ScaledSite, scaled_mailbox: Mailbox
) -> None:
    email = new_customer(scaled_site.url, "scaled-limit")

    def ask(_: int) -> int:
        return _request(
            scaled_site.url + "/api/v1/Auth/ForgotPassword", method="POST", body={"email": email}
        )[0]

    with ThreadPoolExecutor(20) as pool:
        statuses = list(pool.map(ask, range(20)))

    assert sorted(statuses) == [200] + [429] * 19
    assert scaled_mailbox.wait_for(email, timeout=20)


def test_mail_asked_for_while_the_job_runner_is_killed_is_sent_by_its_successor(
    scaled_site: ScaledSite, scaled_mailbox: Mailbox
) -> None:
    """No worker sends mail under run-scaled: a runner process does. Killed, it is started
    again, and the mail queued meanwhile goes out."""
    email = new_customer(scaled_site.url, "scaled-runner")
    killed = scaled_site.kill_job_runner(0)
    status = _request(
        scaled_site.url + "/api/v1/Auth/ForgotPassword", method="POST", body={"email": email}
    )[0]
    assert status == 200
    assert "reset" in str(scaled_mailbox.wait_for(email, timeout=60)["Subject"]).lower()
    assert scaled_site.processes()["job_runners"][0] not in (None, killed)


def test_the_account_screens_work_across_workers(
    scaled_page: Page, scaled_site: ScaledSite, scaled_mailbox: Mailbox
) -> None:
    page = scaled_page
    email = unique_email("scaled-screens")
    form = open_registration(page)
    dialog = register(page, form, email=email, user_name="Scaled Customer", mobile="0123456789")
    dialog.get_by_role("button", name="OK").click()

    page.goto(routes.FORGOT_PASSWORD.path)
    forgot = page.get_by_role("form", name="Request a reset link")
    forgot.get_by_label("Email").fill(email)
    forgot.get_by_role("button", name="Send reset link").click()
    expect(page.get_by_role("alertdialog")).to_contain_text("If an account exists")
    mail = scaled_mailbox.wait_for(email, timeout=30)
    link = RESET_LINK.search(mail.get_body(preferencelist=("plain",)).get_content())
    assert link
    page.goto(link.group(0))
    reset = page.get_by_role("form", name="Reset password")
    reset.get_by_label("New password", exact=True).fill("scaled-new-pass")
    reset.get_by_label("Confirm password", exact=True).fill("scaled-new-pass")
    watch_texts(page, "Your password has been successfully reset!")
    reset.get_by_role("button", name="Reset password").click()
    expect_shown(page, "Your password has been successfully reset!")

    page.goto(routes.LOG_IN.path)
    submit_login(page, email, "scaled-new-pass")
    expect_signed_in_at_home(page)
    header = page.get_by_role("navigation", name="Main")
    header.get_by_role("button", name="Logout").click()
    expect(header.get_by_role("link", name="Log in")).to_be_visible()


def test_a_session_outlives_each_worker_being_killed(scaled_site: ScaledSite) -> None:
    """Each worker in turn is killed while the others run: the next request goes to a live
    one, and the login made before still counts (sessions are in PostgreSQL)."""
    email = new_customer(scaled_site.url, "scaled-kill")
    bearer = bearer_for(scaled_site.url, email, PASSWORD)

    for index in range(len(scaled_site.worker_pids())):
        scaled_site.wait_for_all_workers()
        scaled_site.kill_worker(index)
        for _ in range(6):  # more requests than workers: every worker is tried
            status, _, body = _request(scaled_site.url + "/api/v1/User/Me", headers=bearer)
            assert status == 200, body
            assert json.loads(body)["data"]["emailAddress"] == email


def test_two_hundred_registrations_while_a_worker_is_killed(scaled_site: ScaledSite) -> None:
    emails = [unique_email("burst") for _ in range(200)]

    def register(email: str) -> int:
        try:
            return _request(
                scaled_site.url + "/api/v1/User/CreateCustomer",
                method="POST",
                timeout=60,
                body={
                    "UserName": "Burst Customer",
                    "EmailAddress": email,
                    "MobileNumber": "0123456789",
                    "Password": PASSWORD,
                    "CompanyName": "Acme",
                    "Location": "Leeds",
                },
            )[0]
        except OSError:
            return 0  # the connection broke: the client retries, as with a 502

    scaled_site.wait_for_all_workers()
    with ThreadPoolExecutor(200) as pool:
        answers = pool.map(register, emails)
        scaled_site.kill_worker(0)
        statuses = dict(zip(emails, answers, strict=True))

    created = [email for email, status in statuses.items() if status == 201]
    assert created, statuses
    assert set(statuses.values()) <= {201, 502, 503, 504, 0}, statuses
    engine = create_engine(scaled_site.database_url)
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT email, count(*) FROM customer WHERE email LIKE 'burst.%' GROUP BY email")
        ).all()
    engine.dispose()
    counts = dict(rows)
    assert all(counts.get(email) == 1 for email in created)
    assert all(count == 1 for count in counts.values())


def test_a_tab_carries_on_after_every_worker_is_killed(
    scaled_page: Page, scaled_site: ScaledSite
) -> None:
    """The worker holding the tab's websocket dies (all of them do): the tab reconnects to
    a restarted one, keeps its login and its next action works."""
    page = scaled_page
    email = unique_email("scaled-tab")
    scaled_site.wait_for_all_workers()  # an earlier test may have killed one
    create_customer(scaled_site.url, email)
    page.goto(routes.LOG_IN.path)
    submit_login(page, email)
    expect_signed_in_at_home(page)
    token = page.evaluate("window.sessionStorage.getItem('token')")

    with page.expect_websocket(timeout=120_000):  # the tab's new connection
        for index in range(len(scaled_site.worker_pids())):
            scaled_site.kill_worker(index)
        expect(page.get_by_role("alert").filter(has_text=CONNECTION_LOST)).to_be_visible()
    # A worker takes about 5 s to import the app, after the runner's 1 s restart delay.
    scaled_site.wait_for_all_workers()
    expect(page.get_by_role("alert").filter(has_text=CONNECTION_LOST)).to_be_hidden(timeout=30_000)
    # The same tab to Reflex, so the same state: not a new tab that happens to be signed in.
    assert page.evaluate("window.sessionStorage.getItem('token')") == token

    header_action(page, "My account").click()
    expect(page.get_by_role("heading", name="Overview")).to_be_visible(timeout=30_000)


def test_a_minute_of_visitors_and_customers_gets_no_error(scaled_site: ScaledSite) -> None:
    """200 visitors reading pages and 20 customers logging in and booking calls for 60 s;
    the figures go to test-artifacts/load.json and the end of the test report."""
    scaled_site.wait_for_all_workers()  # an earlier test may have killed them all
    customers = [(unique_email("load"), PASSWORD) for _ in range(LOAD_CUSTOMERS)]
    for email, _ in customers:
        create_customer(scaled_site.url, email)

    summary = run_load(
        scaled_site.url, seconds=LOAD_SECONDS, visitors=LOAD_VISITORS, customers=customers
    )
    LOAD_REPORT.parent.mkdir(exist_ok=True)
    LOAD_REPORT.write_text(json.dumps(summary, indent=2))

    assert summary["errors"] == 0, summary["first_errors"]
    # Far below what a minute gives (a page a second per visitor): the clients did run.
    assert summary["pages"]["count"] >= LOAD_VISITORS * 10
    assert summary["logins"]["count"] >= LOAD_CUSTOMERS * 2
    engine = create_engine(scaled_site.database_url)
    with engine.connect() as connection:
        stored = connection.execute(
            text("SELECT count(*) FROM quote_request WHERE email LIKE 'load.%'")
        ).scalar_one()
    engine.dispose()
    assert stored == summary["quotes"]["count"]


def test_views_of_pages_nginx_serves_are_counted(browser, scaled_site: ScaledSite) -> None:
    """nginx serves the pages' HTML; the workers count the views from the tab's events."""
    campaign = f"scaled-{uuid.uuid4().hex[:8]}"
    engine = create_engine(scaled_site.database_url)

    def visits() -> list[tuple]:
        with engine.connect() as connection:
            return list(
                connection.execute(
                    text(
                        "SELECT views, entry_path, source FROM analytics_visit WHERE campaign = :c"
                    ),
                    {"c": campaign},
                )
            )

    try:
        with open_tab(browser, scaled_site, user_agent=f"{CHROME} S/{campaign}") as page:
            page.add_init_script(NOT_DRIVEN)
            page.goto(f"/?utm_source=newsletter&utm_campaign={campaign}")
            page.get_by_role("navigation", name="Main").get_by_role("link", name="About").click()
            expect(page).to_have_url(re.compile(r"/about$"))
            # The tab stays open: its move to /about is an event still on its way.
            assert wait_for(lambda: visits() == [(2, "/", "newsletter")], page=page), visits()
    finally:
        engine.dispose()
