"""A booked call as the visitor adds it to a calendar from the page: Google Calendar's and
Outlook's "new event" template links, and the invitation as a file to download.

None of them holds the manage link: they are shown on pages whose state the server keeps
with the tab, where no secret may be (the manage link is in the mailed invitation).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import quote, urlencode

GOOGLE_TEMPLATE = "https://calendar.google.com/calendar/render"
OUTLOOK_COMPOSE = "https://outlook.live.com/calendar/0/action/compose"


@dataclass(frozen=True, slots=True)
class CalendarEntry:
    title: str
    start: datetime
    end: datetime
    details: str
    location: str


def _google_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _outlook_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def google_link(entry: CalendarEntry) -> str:
    """Google Calendar's event template: the times in UTC ("20270302T100000Z/...")."""
    query = {
        "action": "TEMPLATE",
        "text": entry.title,
        "dates": f"{_google_time(entry.start)}/{_google_time(entry.end)}",
        "details": entry.details,
        "location": entry.location,
    }
    return f"{GOOGLE_TEMPLATE}?{urlencode(query)}"


def outlook_link(entry: CalendarEntry) -> str:
    """Outlook on the web's compose deep link: the times in UTC, ISO 8601 with "Z"."""
    query = {
        "path": "/calendar/action/compose",
        "rru": "addevent",
        "subject": entry.title,
        "startdt": _outlook_time(entry.start),
        "enddt": _outlook_time(entry.end),
        "body": entry.details,
        "location": entry.location,
    }
    return f"{OUTLOOK_COMPOSE}?{urlencode(query)}"


def ics_data_url(ics: str) -> str:
    """The invitation as a link the browser saves as a file (with `download`): no request
    to the server, and nothing kept anywhere but the page."""
    return "data:text/calendar;charset=utf-8," + quote(ics, safe="")
