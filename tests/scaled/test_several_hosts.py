"""The site on several hosts for real: network namespaces of the test's own (`lb`, `app1`,
`app2`, `data`; tests/support/several_hosts.py), nothing shared by disk, everything
through the balancer as visitors reach it. The tests run in order on one set of hosts;
each leaves both app hosts serving."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from rcxsite.content import routes
from rcxsite.platform.outages import UNAVAILABLE_MESSAGE
from tests.support.accounts_ui import (
    PASSWORD,
    expect_signed_in_at_home,
    log_in,
    new_customer,
    submit_login,
)
from tests.support.api import FORGOT, LOGOUT, ME, envelope
from tests.support.booking_site import only_host_on, rows_on
from tests.support.booking_ui import api_book
from tests.support.browser import DESKTOP, open_tab
from tests.support.plain_http import bearer_for, request
from tests.support.several_hosts import (
    HOSTS_REPORT,
    AppHost,
    SeveralHosts,
    SteadyLoad,
    note,
    several_hosts,
)
from tests.support.waiting import wait_for

SLOTS = "/api/v1/Booking/Slots"


@pytest.fixture(scope="module")
def hosts() -> Iterator[SeveralHosts]:
    HOSTS_REPORT.unlink(missing_ok=True)  # this run's figures only
    with several_hosts() as site:
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
    login = bearer_for(hosts.url, email, PASSWORD)
    for _ in hosts.apps:  # the balancer takes turns: each host answers once
        answer = envelope(httpx.get(hosts.url + ME, headers=login))
        assert answer["status"] == 200 and answer["data"]["emailAddress"] == email  # type: ignore[index]
    refused = envelope(httpx.get(hosts.url + ME))
    assert refused["status"] == 401

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

    def queued_since(last: int) -> list[tuple]:
        return rows_on(
            hosts, "SELECT state, claimed_by FROM job WHERE kind = 'mail' AND id > :last", last=last
        )

    app1.pause_runners()
    try:
        # Every mail queued from now on can only be sent by app2's runner.
        [(last,)] = rows_on(hosts, "SELECT coalesce(max(id), 0) FROM job")
        status, _, body = request(app1.url + FORGOT, method="POST", body={"email": email})
        assert status == 200, body
        mail = hosts.mailbox.wait_for(email, timeout=60)
        assert "reset" in mail["Subject"].lower()
        # The runner marks a job done just after the mail server took the mail.
        assert wait_for(
            lambda: all(state == "done" for state, _ in queued_since(last)), timeout_s=30
        )
        sent_by = {runner.split(":")[0] for _, runner in queued_since(last)}
        assert sent_by == {"app2"}, queued_since(last)
    finally:
        app1.resume_runners()


LOAD_SECONDS = 30
KILLED_AFTER_S = 10
CLIENTS = 4
LOAD_PATHS = ["/", SLOTS, "/pricing"]


def _elapsed(since: float, seconds: float) -> Callable[[], bool]:
    return lambda: time.monotonic() - since >= seconds


@contextmanager
def _tab_connected_to(app: AppHost, browser: Any, hosts: SeveralHosts) -> Iterator[Any]:
    """A tab on the log-in page whose websocket the balancer gave to `app` (it alternates
    the hosts, so a second or third tab gets there)."""

    def counts() -> dict[str, int]:
        return {name: host.open_websockets() for name, host in hosts.apps.items()}

    for _ in range(6):
        before = counts()
        with open_tab(browser, hosts, DESKTOP) as page:
            page.goto(routes.LOG_IN.path)
            page.get_by_role("form", name="Log in").wait_for()
            opened = sum(before.values()) + 1
            assert wait_for(lambda n=opened: sum(counts().values()) >= n, timeout_s=20)
            if counts()[app.name] > before[app.name]:
                yield page
                return
        # The closed tab's websocket is let go of before the next one is counted.
        assert wait_for(lambda seen=before: counts() == seen, timeout_s=20), before
    raise AssertionError(f"no tab's websocket reached {app.name}")


def test_app1_killed_under_load_loses_only_what_it_held_and_the_tab_goes_on_on_app2(
    hosts: SeveralHosts, lb_browser
) -> None:
    app1 = hosts.apps["app1"]
    email = new_customer(hosts.url, "survivor")
    mailed = new_customer(hosts.url, "mailed-before-the-kill")
    try:
        with _tab_connected_to(app1, lb_browser, hosts) as page:
            started = time.monotonic()
            with SteadyLoad(hosts.url, LOAD_PATHS, CLIENTS) as load:
                wait_for(_elapsed(started, KILLED_AFTER_S), timeout_s=KILLED_AFTER_S + 5)
                # A mail queued on app1 a moment before it dies: whichever runner holds
                # it, app2's sends it (at once, or once a dead runner's lease runs out).
                status, _, _ = request(app1.url + FORGOT, method="POST", body={"email": mailed})
                assert status == 200
                app1.kill()
                killed = time.monotonic()
                wait_for(_elapsed(started, LOAD_SECONDS), timeout_s=LOAD_SECONDS + 5)
            note("app1 killed under load: answers through lb", load.figures())
            assert len(load.answers) > 100, "the load hardly ran"
            failures = load.failures()
            # At most the requests app1 held when it died, one per client at most.
            assert len(failures) <= CLIENTS, failures
            assert all(abs(failure.at - killed) < 10 for failure in failures), failures

            submit_login(page, email)
            expect_signed_in_at_home(page)

        assert hosts.mailbox.wait_for(mailed, timeout=60)
        # Every mail went (one app1's runner held is taken over once its lease ran out).
        assert wait_for(
            lambda: (
                rows_on(hosts, "SELECT count(*) FROM job WHERE kind = 'mail' AND state <> 'done'")
                == [(0,)]
            ),
            timeout_s=60,
        )
        assert rows_on(hosts, "SELECT count(*) FROM job WHERE state = 'failed'") == [(0,)]
    finally:
        app1.kill()  # whatever is left of it, if the test stopped before the kill
        app1.start(hosts.web_build)
        app1.wait_until_ready()


NEXT_KIND = "release_check"
_ASSET = re.compile(r'(?:href|src)="(/assets/[^"]+\.(?:css|js))"')


def _next_release(sources: Path) -> None:
    """What the next version changes: a page's words (so its chunks differ) and a kind of
    job the running version does not know."""
    page = sources / "rcxsite" / "content" / "not_found.py"
    page.write_text(page.read_text().replace("does not exist or has moved.", "has moved or gone."))
    (sources / "rcxsite" / "release_check.py").write_text(
        "from rcxsite.jobs.kinds import handler\n\n\n"
        f"@handler({NEXT_KIND!r})\n"
        "def check(payload: dict) -> None:\n"
        "    pass\n"
    )
    kinds = sources / "rcxsite" / "job_kinds.py"
    kinds.write_text(
        kinds.read_text().replace(
            "import rcxsite.accounts.prune\n",
            "import rcxsite.accounts.prune\nimport rcxsite.release_check  # noqa: F401\n",
        )
    )


def _assets(url: str) -> set[str]:
    status, _, body = request(url + "/")
    assert status == 200
    return set(_ASSET.findall(body.decode()))


def _queue_job(hosts: SeveralHosts, kind: str) -> int:
    engine = create_engine(hosts.database_url)
    try:
        with engine.begin() as connection:
            return int(
                connection.execute(
                    text(
                        "INSERT INTO job (kind, ref, payload, state, due_at, attempts,"
                        " claimed_by, last_error, created_at)"
                        " VALUES (:kind, '', '{}', 'queued', now(), 0, '', '', now())"
                        " RETURNING id"
                    ),
                    {"kind": kind},
                ).scalar_one()
            )
    finally:
        engine.dispose()


def test_a_rolling_deploy_serves_throughout_and_a_new_kind_of_job_waits_for_the_new_version(
    hosts: SeveralHosts,
) -> None:
    app1, app2 = hosts.apps["app1"], hosts.apps["app2"]
    sources = hosts.new_sources("app1-next")
    _next_release(sources)
    next_build = hosts.build(sources, "next")
    assert next_build.name != hosts.web_build.name
    mailed = new_customer(app2.url, "mailed-during-the-deploy")
    before_the_deploy = app1.folder
    try:
        _roll_app1_onto(next_build, sources, hosts, mailed)
    except BaseException:
        app1.kill()  # back on the build the other tests know
        app1.start(hosts.web_build, folder=before_the_deploy)
        app1.wait_until_ready()
        raise


def _roll_app1_onto(next_build: Path, sources: Path, hosts: SeveralHosts, mailed: str) -> None:
    app1, app2 = hosts.apps["app1"], hosts.apps["app2"]
    with SteadyLoad(hosts.url, LOAD_PATHS, CLIENTS) as load:
        app1.stop()
        job = _queue_job(hosts, NEXT_KIND)
        # app2's runner does rounds meanwhile (it sends a mail queued after the job)...
        request(app2.url + FORGOT, method="POST", body={"email": mailed})
        assert hosts.mailbox.wait_for(mailed, timeout=60)
        # ...and leaves the job it does not know alone.
        assert rows_on(hosts, "SELECT state, attempts FROM job WHERE id = :j", j=job) == [
            ("queued", 0)
        ]

        app1.start(next_build, folder=sources)
        app1.wait_until_ready()
        assert wait_for(
            lambda: rows_on(hosts, "SELECT state FROM job WHERE id = :j", j=job) == [("done",)],
            timeout_s=30,
        )
        # (the balancer left app1 out for a moment when it stopped; it asks it again)
        assert wait_for(lambda: _assets(hosts.url) == _assets(app1.url), timeout_s=30)
    note("rolling deploy: answers through lb", load.figures())
    assert len(load.answers) > 50
    assert load.failures() == []

    # Either build's pages, whichever host the balancer asks for their chunks first: it
    # takes turns, so of two asks for a chunk one goes first to the host without it.
    old, new = _assets(app2.url), _assets(app1.url)
    only_new = sorted(new - old)
    assert only_new and request(app2.url + only_new[0])[0] == 404
    for asset in sorted(old ^ new):
        for _ in hosts.apps:
            assert request(hosts.url + asset)[0] == 200, asset
    [(state, attempts, claimed_by)] = rows_on(
        hosts, "SELECT state, attempts, claimed_by FROM job WHERE id = :j", j=job
    )
    assert (state, attempts) == ("done", 1) and claimed_by.startswith("app1:"), claimed_by
    assert rows_on(hosts, "SELECT count(*) FROM job WHERE state = 'failed'") == [(0,)]


CUT_SECONDS = 20


def test_app2_cut_from_the_data_host_answers_503_visitors_go_to_app1_and_app2_recovers(
    hosts: SeveralHosts,
) -> None:
    app2 = hosts.apps["app2"]
    hosts.network.cut("app2", "data")
    cut = time.monotonic()
    try:
        assert wait_for(lambda: request(app2.url + "/healthz")[0] == 503, timeout_s=30)
        status, _, body = request(app2.url + SLOTS)
        assert (status, json.loads(body)["message"]) == (503, UNAVAILABLE_MESSAGE)
        with SteadyLoad(hosts.url, [SLOTS, "/"], clients=2) as load:
            wait_for(_elapsed(cut, CUT_SECONDS), timeout_s=CUT_SECONDS + 5)
        note("app2 cut from data: answers through lb", load.figures())
        # Every visitor answered: a request app2 took is asked of app1 once app2 says 503
        # (within the database's connect and TCP bounds), and app2 is left out a while.
        assert load.failures() == []
        assert len(load.answers) >= 4
    finally:
        hosts.network.mend("app2", "data")
    assert wait_for(lambda: request(app2.url + SLOTS)[0] == 200, timeout_s=60)
    assert request(app2.url + "/healthz")[0] == 200


def test_both_hosts_recover_once_postgresql_restarts(hosts: SeveralHosts) -> None:
    email = new_customer(hosts.url, "restart")
    with hosts.network.on("data"):
        hosts.postgres.stop()  # "immediate": every open connection breaks
        hosts.postgres.start()
    for app in hosts.apps.values():
        assert wait_for(lambda url=app.url: request(url + SLOTS)[0] == 200, timeout_s=60)
        status, answer = _me(app.url, bearer_for(app.url, email, PASSWORD))
        assert status == 200 and answer["data"]["emailAddress"] == email
