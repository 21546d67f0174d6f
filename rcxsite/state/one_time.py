"""Secrets shown once: sent to the page in a script event, never kept in a state var.

A state var is stored with the tab (on disk, or in Redis when scaled) and sent again to
whoever reconnects with the tab's token; an event is sent once, to this connection. The
page's `OneTimeSecret` (components_js/OneTimeSecret.jsx) shows what arrives under its slot.
"""

from __future__ import annotations

import json

import reflex as rx
from reflex.event import EventSpec

EVENT = "rcx-one-time"


def show_once(secrets: dict[str, str | list[str]]) -> EventSpec:
    """The event that hands `secrets` (slot: value) to the page."""
    detail = json.dumps(secrets)
    return rx.call_script(
        f"window.rcxOneTime = Object.assign(window.rcxOneTime || {{}}, {detail}); "
        f"window.dispatchEvent(new CustomEvent({json.dumps(EVENT)}, {{detail: {detail}}}))"
    )
