"""A calendar a member connects on their Availability page (or an admin from the command
line): a private iCalendar address, or a CalDAV calendar with its user name and app
password, and whether booked calls are written to it (CalDAV only)."""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import Field, ValidationInfo, field_validator

from rcxsite.booking.hours_inputs import checked
from rcxsite.core.forms import FormInput, parsed_by, problem, text_only
from rcxsite.models.calendars import CALDAV, CALENDAR_URL_MAX, CALENDAR_USER_MAX, ICS

URL_REQUIRED = "Please enter the calendar's address"
URL_INVALID = "Enter the calendar's http or https address, e.g. https://calendar.example/…"
URL_TOO_LONG = f"The address is longer than {CALENDAR_URL_MAX} characters"
KIND_INVALID = "Choose an iCal address or a CalDAV calendar"
USER_REQUIRED = "Please enter the user name for this calendar"
PASSWORD_REQUIRED = "Please enter an app password for this calendar"
PASSWORD_MAX = 200
PASSWORD_TOO_LONG = f"The password is longer than {PASSWORD_MAX} characters"
WRITE_NEEDS_CALDAV = "Booked calls can be added to a CalDAV calendar only"


def calendar_url(value: object) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise problem(URL_REQUIRED)
    # Apple and Google hand out webcal:// for the same https address.
    if text.lower().startswith("webcal://"):
        text = "https://" + text[len("webcal://") :]
    parts = urlsplit(text)
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.username is not None
        or any(char.isspace() for char in text)
        or not text.isascii()
    ):
        raise problem(URL_INVALID)
    return text


class CalendarInput(FormInput):
    too_long_messages = {"url": URL_TOO_LONG, "password": PASSWORD_TOO_LONG}

    kind: str = Field(ICS, max_length=8)
    url: str = Field("", max_length=CALENDAR_URL_MAX)
    username: str = Field("", max_length=CALENDAR_USER_MAX)
    password: str = Field("", max_length=PASSWORD_MAX)
    write_calls: bool = False

    _text_only = text_only("url", "username", "password")
    _url = parsed_by(calendar_url, "url")
    _write = parsed_by(checked, "write_calls", before=True)

    @field_validator("kind")
    @classmethod
    def _kind(cls, value: str) -> str:
        value = value.strip() or ICS
        if value not in (ICS, CALDAV):
            raise problem(KIND_INVALID)
        return value

    @field_validator("username")
    @classmethod
    def _username(cls, value: str, info: ValidationInfo) -> str:
        if info.data.get("kind") == CALDAV and not value.strip():
            raise problem(USER_REQUIRED)
        return value.strip() if info.data.get("kind") == CALDAV else ""

    @field_validator("password")
    @classmethod
    def _password(cls, value: str, info: ValidationInfo) -> str:
        if info.data.get("kind") == CALDAV and not value:
            raise problem(PASSWORD_REQUIRED)
        return value if info.data.get("kind") == CALDAV else ""

    @field_validator("write_calls")
    @classmethod
    def _write_calls(cls, value: bool, info: ValidationInfo) -> bool:
        if value and info.data.get("kind") != CALDAV:
            raise problem(WRITE_NEEDS_CALDAV)
        return value
