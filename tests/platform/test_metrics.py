"""What operators watch: `/metrics` for the scraper holding METRICS_TOKEN only, with
requests by route and status, open websockets, the job queue, mail failures, booking
conflicts and analytics drops, added up across processes; and a request id on every
answer and on the log lines written while answering it (rcxsite/platform/metrics.py,
rcxsite/web/metrics.py, rcxsite/web/observed.py)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from rcxsite.analytics.recording import Recorder
from rcxsite.jobs import queue
from rcxsite.platform.db import session_scope
from rcxsite.platform.logs import configure_logging
from rcxsite.platform.metrics import MULTIPROCESS_DIR, let_go_of_dead_processes
from tests.support.api import LOGIN
from tests.support.fixtures import Configure, configure, fresh_state, site_root
from tests.support.in_process_site import InProcessSite, in_process_site
from tests.support.page_views import page_view
from tests.support.staff_socket import StaffTab

__all__ = ["configure", "fresh_state", "site_root"]  # fixtures: a site of this module's own

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "m" * 40


@pytest.fixture(scope="module")
def site(site_root: Path) -> Iterator[InProcessSite]:
    with in_process_site() as running:
        yield running


def _scrape(site: InProcessSite, token: str = TOKEN) -> str:
    answer = site.request("GET", "/metrics", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return answer.text


def _value(text: str, sample: str) -> float:
    found = re.search(rf"^{re.escape(sample)} (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_metrics_are_served_only_to_the_token_holder(
    site: InProcessSite, configure: Configure
) -> None:
    assert site.request("GET", "/metrics").status_code == 404  # no token set: no path
    configure(metrics_token=TOKEN)
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}):
        refused = site.request("GET", "/metrics", headers=headers)
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"] == "Bearer"
        assert "rcx_" not in refused.text
    assert "rcx_http_requests_total" in _scrape(site)


def test_requests_websockets_and_the_queue_are_counted(
    site: InProcessSite, configure: Configure
) -> None:
    configure(metrics_token=TOKEN)
    before = _scrape(site)
    for _ in range(3):
        assert site.request("GET", "/livez").status_code == 200
    assert site.request("GET", "/no-such-page").status_code == 404
    with session_scope() as session:
        # A kind no runner here knows: it waits (as a new kind's jobs do in a deploy).
        queue.add(
            session, kind="from-a-newer-version", due_at=datetime.now(UTC) - timedelta(minutes=2)
        )
    tab = StaffTab(site, cookie="")
    try:
        during = _scrape(site)
    finally:
        tab.close()
    after = _scrape(site)

    livez = 'rcx_http_requests_total{route="/livez",status="200"}'
    assert _value(during, livez) - _value(before, livez) == 3
    other = 'rcx_http_requests_total{route="other",status="404"}'
    assert _value(during, other) - _value(before, other) >= 1
    assert _value(during, "rcx_open_websockets") == _value(after, "rcx_open_websockets") + 1
    assert _value(during, 'rcx_job_queue_depth{kind="from-a-newer-version"}') == 1
    assert _value(during, 'rcx_job_oldest_wait_seconds{kind="from-a-newer-version"}') >= 120
    # A typed path never becomes a label of its own.
    assert "no-such-page" not in during


def test_each_answer_carries_a_request_id_the_log_lines_name(site: InProcessSite) -> None:
    made = site.request("GET", "/livez").headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    assert (
        site.request("GET", "/livez", headers={"X-Request-ID": "lb-1234abcd"}).headers[
            "x-request-id"
        ]
        == "lb-1234abcd"
    )
    odd = site.request("GET", "/livez", headers={"X-Request-ID": 'a b"<script>'})
    assert re.fullmatch(r"[0-9a-f]{32}", odd.headers["x-request-id"])

    lines = io.StringIO()
    configure_logging(stream=lines)
    try:
        wrong = {"UserName": "nobody@example.com", "Password": "wrong-password"}
        site.request("POST", LOGIN, json=wrong, headers={"X-Request-ID": "lb-login-0001"})
    finally:
        configure_logging()
    logged = [json.loads(line) for line in lines.getvalue().splitlines()]
    mine = [line for line in logged if line.get("request_id") == "lb-login-0001"]
    assert mine and all(line["host"] for line in mine)
    assert any(line.get("event") == "login" for line in mine)


def test_analytics_drops_are_counted() -> None:
    def unreachable(views: object) -> int:
        raise ConnectionError("database down")

    name, labels = "rcx_analytics_dropped_views_total", {"reason": "not_stored"}
    before = REGISTRY.get_sample_value(name, labels) or 0.0
    failing = Recorder(write=unreachable, flush_seconds=3600)
    failing.offer("tab", page_view(datetime.now(UTC)))
    failing.offer("tab", page_view(datetime.now(UTC)))
    failing.flush()
    assert (REGISTRY.get_sample_value(name, labels) or 0.0) - before == 2


def _in_a_process(folder: Path, code: str) -> str:
    """What `code` prints, run in a process of its own sharing `folder`'s metrics."""
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, MULTIPROCESS_DIR: str(folder)},
        check=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout


_SHOW = (
    "from rcxsite.platform.metrics import exposition;"
    "import sys; sys.stdout.write(exposition()[0].decode())"
)


def test_every_process_of_a_host_is_added_up(tmp_path: Path) -> None:
    count = (
        "from rcxsite.platform.metrics import REQUESTS, MAIL_FAILURES;"
        "REQUESTS.labels(route='/livez', status='200').inc(2);"
        "MAIL_FAILURES.labels(outcome='will_retry').inc()"
    )
    for _ in range(2):  # two workers (or a worker and a runner)
        _in_a_process(tmp_path, count)
    shown = _in_a_process(tmp_path, _SHOW)
    assert _value(shown, 'rcx_http_requests_total{route="/livez",status="200"}') == 4
    assert _value(shown, 'rcx_mail_failures_total{outcome="will_retry"}') == 2


def test_a_dead_process_open_websockets_are_let_go_of(tmp_path: Path) -> None:
    # A worker that died with three tabs open (it never closed them).
    _in_a_process(
        tmp_path, "from rcxsite.platform.metrics import OPEN_WEBSOCKETS; OPEN_WEBSOCKETS.inc(3)"
    )
    assert _value(_in_a_process(tmp_path, _SHOW), "rcx_open_websockets") == 3
    let_go_of_dead_processes(str(tmp_path))
    assert _value(_in_a_process(tmp_path, _SHOW), "rcx_open_websockets") == 0
