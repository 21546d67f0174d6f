"""Waiting for an effect that arrives after the action that causes it: a cookie set or
removed by a request the page sends after an event, a file or row written a moment later.

A test waits on the condition it then asserts, never on an earlier sign of it (the header
changing, a message showing): on a loaded machine the effect may come later than the sign.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

TIMEOUT_S = 15.0
INTERVAL_S = 0.1


def wait_for(check: Callable[[], Any], *, page: Any = None, timeout_s: float = TIMEOUT_S) -> bool:
    """Asks `check()` until it is true or `timeout_s` has passed; returns its last answer, so
    that the assertion that follows fails with its own message at the deadline. With a
    Playwright `page`, the pauses are the page's own, so that its event handlers (a routed
    websocket's, a console listener's) run meanwhile."""
    deadline = time.monotonic() + timeout_s
    while True:
        if check():
            return True
        if time.monotonic() > deadline:
            return False
        if page is not None:
            page.wait_for_timeout(INTERVAL_S * 1000)
        else:
            time.sleep(INTERVAL_S)
