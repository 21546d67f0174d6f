"""What a visitor sees while the server cannot be reached.

Replaces Reflex's default overlay (a toast library and a pulsing icon): one line of our
own markup, announced when it appears, gone once the connection is back. Reflex wraps
the page in this component, so it must be a fragment that adds nothing around it.
"""

from __future__ import annotations

import reflex as rx
from reflex_components_core.core.banner import has_connection_errors

CONNECTION_LOST = "Connection to the server lost. Trying to reconnect…"


def connection_notice() -> rx.Component:
    return rx.fragment(
        rx.cond(
            has_connection_errors,
            rx.el.p(CONNECTION_LOST, class_name="connection-notice", role="alert"),
        )
    )
