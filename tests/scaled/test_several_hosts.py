"""The site on several hosts for real: network namespaces of the test's own (`lb`, `app1`,
`app2`, `data`; tests/support/several_hosts.py), nothing shared by disk, everything
through the balancer as visitors reach it. The tests run in order on one set of hosts;
each leaves both app hosts serving."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.support.accounts_ui import PASSWORD, log_in, new_customer
from tests.support.api import FORGOT, LOGOUT, ME
from tests.support.booking_site import only_host_on, rows_on
from tests.support.booking_ui import api_book
from tests.support.browser import DESKTOP, open_tab
from tests.support.plain_http import bearer_for, request
from tests.support.several_hosts import SeveralHosts, several_hosts

SLOTS = "/api/v1/Booking/Slots"


@pytest.fixture(scope="module")
def hosts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SeveralHosts]:
    with several_hosts(tmp_path_factory.mktemp("several-hosts")) as site:
        yield site


@pytest.fixture(autouse=True)
def on_lb(hosts: SeveralHosts) -> Iterator[None]:
    """The test's own requests go out from `lb`, as a visitor's reach the balancer."""
    with hosts.network.on("lb"):
        yield


@pytest.fixture(scope="module")
def lb_browser(hosts: SeveralHosts, browser) -> Iterator[object]:
    with hosts.browser_on_lb(browser) as chromium:
        yield chromium


def _me(url: str, headers: dict[str, str]) -> tuple[int, dict]:
    status, _, body = request(url + ME, headers=headers)
    return status, json.loads(body)


def test_the_api_and_a_browser_login_work_through_the_balancer(
    hosts: SeveralHosts, lb_browser
) -> None:
    for app in hosts.apps.values():
        for check in ("/healthz", "/livez"):
            assert request(app.url + check)[0] == 200, (app.name, check)

    email = new_customer(hosts.url, "several")
    status, answer = _me(hosts.url, bearer_for(hosts.url, email, PASSWORD))
    assert status == 200 and answer["data"]["emailAddress"] == email

    with open_tab(lb_browser, hosts, DESKTOP) as page:
        log_in(page, email)


def test_a_login_made_on_app1_holds_on_app2_and_a_logout_on_app2_ends_it_on_app1(
    hosts: SeveralHosts,
) -> None:
    app1, app2 = hosts.apps["app1"], hosts.apps["app2"]
    email = new_customer(app1.url, "crossing")
    login = bearer_for(app1.url, email, PASSWORD)

    status, answer = _me(app2.url, login)
    assert status == 200 and answer["data"]["emailAddress"] == email

    status, _, body = request(app2.url + LOGOUT, method="POST", headers=login)
    assert status == 200, body
    status, answer = _me(app1.url, login)
    assert status == 401, answer


def test_a_time_booked_on_one_host_is_taken_on_the_other(hosts: SeveralHosts) -> None:
    app1, app2 = hosts.apps["app1"], hosts.apps["app2"]
    host_id = only_host_on(hosts, "Hana Hosts")

    def starts(app_url: str) -> list[str]:
        status, _, body = request(app_url + SLOTS)
        assert status == 200, body
        return [slot["start"] for slot in json.loads(body)["data"]["slots"]]

    time = starts(app1.url)[0]
    assert api_book(app1.url, time, "first.buyer@example.com")[0] == 201
    assert time not in starts(app2.url)
    status, answer = api_book(app2.url, time, "second.buyer@example.com")
    assert status == 409, answer
    assert rows_on(hosts, "SELECT count(*) FROM booking WHERE host_id = :h", h=host_id) == [(1,)]


def test_a_mail_queued_on_app1_while_its_runner_is_stopped_is_sent_by_app2s(
    hosts: SeveralHosts,
) -> None:
    app1 = hosts.apps["app1"]
    email = new_customer(app1.url, "mailed")
    app1.pause_runners()
    try:
        status, _, body = request(app1.url + FORGOT, method="POST", body={"email": email})
        assert status == 200, body
        mail = hosts.mailbox.wait_for(email, timeout=60)
    finally:
        app1.resume_runners()
    assert "reset" in mail["Subject"].lower()
    [(sent_by,)] = rows_on(
        hosts,
        "SELECT claimed_by FROM job WHERE kind = 'mail' AND state = 'done' "
        "ORDER BY id DESC LIMIT 1",
    )
    assert sent_by.startswith("app2:"), sent_by
