"""The company's rules for booked calls, read from the settings (BOOKING_* variables)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from rcxsite.core.working_week import CALL_TIMEZONE
from rcxsite.platform.settings import get_settings

# Where the company's wall clock is: a visitor or member without a zone of their own is here.
COMPANY_TIME_ZONE = CALL_TIMEZONE
# The roles that may host a call (with "Takes calls" on).
HOST_ROLES = ("sales", "admin")


@dataclass(frozen=True, slots=True)
class Rules:
    call: timedelta
    # Free time kept after each call: the host's time a booking takes is call + buffer.
    buffer: timedelta
    # How soon a call may start from now, and how far ahead it may be booked.
    notice: timedelta
    window: timedelta
    calls_per_day: int
    # Hours before the call at which the visitor is reminded, largest first.
    reminder_hours: tuple[float, ...]
    upcoming_per_email: int

    @property
    def blocked(self) -> timedelta:
        return self.call + self.buffer


def reminder_hours(listed: str) -> tuple[float, ...]:
    """BOOKING_REMINDER_HOURS ("24, 1"; "" = none) as hours, largest first."""
    try:
        hours = {float(part) for part in listed.split(",") if part.strip()}
    except ValueError:
        raise ValueError("BOOKING_REMINDER_HOURS lists hours, e.g. 24, 1") from None
    if any(hour <= 0 for hour in hours):
        raise ValueError("BOOKING_REMINDER_HOURS lists hours before the call, e.g. 24, 1")
    return tuple(sorted(hours, reverse=True))


def rules() -> Rules:
    settings = get_settings()
    return Rules(
        call=timedelta(minutes=settings.booking_call_minutes),
        buffer=timedelta(minutes=settings.booking_buffer_minutes),
        notice=timedelta(hours=settings.booking_notice_hours),
        window=timedelta(days=settings.booking_window_days),
        calls_per_day=settings.booking_calls_per_day,
        reminder_hours=reminder_hours(settings.booking_reminder_hours),
        upcoming_per_email=settings.booking_upcoming_per_email,
    )
