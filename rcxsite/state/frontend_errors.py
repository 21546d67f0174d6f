"""A tab's report of an error in the page: bounded before anything reads it, then logged
as one JSON line.

Any client, signed out, can send Reflex's `handle_frontend_exception` event with any text.
Reflex then runs its auto-reload patterns over the text (`.*` literal `.*` literal: a
crafted 26 KB report held the whole site for seconds) and its default handler prints the
text raw and multi-line to stderr. Here the report is cut to FRONTEND_ERROR_MAX_CHARS
before Reflex sees it, each connection may send FRONTEND_ERROR_REPORTS_PER_CONNECTION, the
reload check finds its pieces in order in linear time, and the text goes through the
site's logger (redacted, one line). Reflex's own `client_error` socket event is bounded
by Reflex (500 characters, 5 per connection) and reaches the same logger.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

from reflex.middleware.middleware import Middleware
from reflex.state import FrontendEventExceptionState, StateUpdate
from reflex_base.utils.format import format_event_handler

from rcxsite.platform.logs import cut

logger = logging.getLogger(__name__)

# A real error's message and the start of its component stack fit.
FRONTEND_ERROR_MAX_CHARS = 2_000
FRONTEND_ERROR_REPORTS_PER_CONNECTION = 5
# Connections whose reports are counted at once; the oldest are forgotten first, so a
# client opening connections without end costs a bounded amount of memory.
_CONNECTIONS_COUNTED = 10_000
_HANDLER = format_event_handler(
    FrontendEventExceptionState.event_handlers["handle_frontend_exception"]
)


class _InOrder:
    """Whether a line of the text holds `pieces` in this order: what Reflex's pattern
    `piece.*piece.*piece` asks, found with `str.find` from left to right (the leftmost
    place of each piece leaves the most room for the next), so never more than a pass
    over each line."""

    def __init__(self, *pieces: str) -> None:
        self.pieces = pieces

    def search(self, text: str) -> bool:
        for line in text.splitlines():
            at = 0
            for piece in self.pieces:
                found = line.find(piece, at)
                if found < 0:
                    break
                at = found + len(piece)
            else:
                return True
        return False


# Reflex's auto_reload_on_errors, same errors (Chrome/Edge, Safari, Firefox twice).
RELOAD_ON_ERRORS = [
    _InOrder("TypeError: Cannot read properties of null"),
    _InOrder("TypeError: null is not an object"),
    _InOrder("TypeError: can't access property \"", '" of null'),
    _InOrder("TypeError: can't access property \"", '", ', " is null"),
]


def report_frontend_error(exception: Exception) -> None:
    """The app's frontend exception handler: one log line, cut to FRONTEND_ERROR_MAX_CHARS."""
    logger.warning("error in a visitor's page: %s", cut(str(exception), FRONTEND_ERROR_MAX_CHARS))


def _bounded(value: Any) -> str:
    return cut(value, FRONTEND_ERROR_MAX_CHARS) if isinstance(value, str) else ""


class FrontendErrorReports(Middleware):
    """Runs before Reflex handles an event: cuts a report's texts and drops a connection's
    reports past its allowance."""

    def __init__(self) -> None:
        self._counts: OrderedDict[str, int] = OrderedDict()

    def _allowed(self, connection: str) -> bool:
        count = self._counts.pop(connection, 0) + 1
        self._counts[connection] = count
        while len(self._counts) > _CONNECTIONS_COUNTED:
            self._counts.popitem(last=False)
        if count == FRONTEND_ERROR_REPORTS_PER_CONNECTION + 1:
            logger.warning("a tab sent too many error reports: the next ones are dropped")
        return count <= FRONTEND_ERROR_REPORTS_PER_CONNECTION

    async def preprocess(self, app: Any, state: Any, event: Any) -> StateUpdate | None:
        if event.name != _HANDLER:
            return None
        if not self._allowed(state.router.session.session_id or state.router.session.client_token):
            return StateUpdate()
        for name in ("info", "component_stack"):
            event.payload[name] = _bounded(event.payload.get(name))
        return None


def bound_frontend_error_reports() -> None:
    """Give Reflex's reload check the linear matchers above (Reflex calls `.search`)."""
    FrontendEventExceptionState.auto_reload_on_errors = RELOAD_ON_ERRORS  # type: ignore[assignment]
