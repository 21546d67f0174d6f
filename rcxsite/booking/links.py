"""The manage link of a booked call: the one place its address is made, so the mails, the
reminders and the service (`rcxsite.booking.service.manage_url`) agree on it."""

from __future__ import annotations

from rcxsite.settings import get_settings

MANAGE_PATH = "/booking"


def manage_url(token: str) -> str:
    """Where the visitor reschedules or cancels the call: SITE_URL/booking/<token>."""
    return f"{get_settings().site_url.rstrip('/')}{MANAGE_PATH}/{token}"
