"""The manage link of a booked call: the one place its address is made, so the mails, the
reminders and the service (`rcxsite.booking.service.manage_url`) agree on it."""

from __future__ import annotations

from rcxsite.core import paths
from rcxsite.platform.settings import get_settings


def manage_url(token: str) -> str:
    """Where the visitor reschedules or cancels the call: SITE_URL/booking/<token>."""
    return get_settings().site_url.rstrip("/") + paths.booking_path(token)
