"""A page's error reports reach the log as one JSON line each, cut, and a few per
connection (make run)."""

from __future__ import annotations

import json
import uuid

from rcxsite.state.frontend_errors import (
    FRONTEND_ERROR_MAX_CHARS,
    FRONTEND_ERROR_REPORTS_PER_CONNECTION,
)
from tests.support import waiting
from tests.support.hostile_frames import settle
from tests.support.live_server import LiveServer
from tests.support.load import Tab

HANDLER = (
    "reflex___state____state.reflex___state____frontend_event_exception_state"
    ".handle_frontend_exception"
)
SENT = FRONTEND_ERROR_REPORTS_PER_CONNECTION + 3


def _report(tab: Tab, text: str) -> None:
    event = {
        "name": HANDLER,
        "payload": {"info": text, "component_stack": "at Page\nat Layout"},
        "router_data": {"pathname": "/", "asPath": "/"},
    }
    tab.socket.send("42/_event," + json.dumps(["event", event]))


def test_error_reports_are_cut_one_line_each_and_few_per_connection(
    live_site: LiveServer,
) -> None:
    marker = f"report-{uuid.uuid4().hex}"
    text = f"TypeError: {marker}\n" + "    at somewhere (app.js:1:2)\n" * 1_000
    tab = Tab(live_site.url, "/")
    try:
        for _ in range(SENT):
            _report(tab, text)
        settle(tab)  # the connection's events are handled in order: the reports were

        def logged() -> list[str]:
            log = live_site.log_path.read_text(errors="replace")
            return [line for line in log.splitlines() if marker in line]

        waiting.wait_for(lambda: len(logged()) >= FRONTEND_ERROR_REPORTS_PER_CONNECTION)
        lines = logged()
    finally:
        tab.close()
    assert len(lines) == FRONTEND_ERROR_REPORTS_PER_CONNECTION, lines[:1]
    for line in lines:
        entry = json.loads(line)  # one JSON line, not the report's 1,000 lines
        assert entry["logger"] == "rcxsite.state.frontend_errors"
        assert len(entry["message"]) < FRONTEND_ERROR_MAX_CHARS + 200
        assert "more characters cut" in entry["message"]
    assert "a tab sent too many error reports" in live_site.log_path.read_text(errors="replace")
