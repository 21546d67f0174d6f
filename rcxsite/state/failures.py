"""What a tab is told when the server could not handle one of its events at all.

The screens' own handlers catch their errors and show their own texts; this covers what
fails before a handler runs, above all Reflex loading the tab's state while Redis is
down. Reflex's default shows a toast library we do not ship; ours asks the page to show
the submitted form's "Something went wrong" text (components_js ActionFailureNotice).
"""

from __future__ import annotations

import logging

import reflex as rx
from reflex.event import EventSpec

from rcxsite.platform.outages import is_outage, log_outage

logger = logging.getLogger(__name__)

ACTION_FAILED_EVENT = "rcx-action-failed"  # passed to ActionFailureNotice as its eventName
_TELL_THE_PAGE = f"window.dispatchEvent(new Event('{ACTION_FAILED_EVENT}'))"


def report_event_failure(exception: Exception) -> EventSpec:
    """Reflex's backend exception handler: log once, then tell the page."""
    if is_outage(exception):
        log_outage(exception, "event")
    else:
        logger.error("An event failed", exc_info=exception)
    return rx.call_script(_TELL_THE_PAGE)
