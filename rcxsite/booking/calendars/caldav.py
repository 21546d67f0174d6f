"""The few CalDAV (RFC 4791) exchanges the site needs, over `fetch.exchange`: the events of
a calendar in a time range (a calendar-query REPORT; free-busy reports are patchy across
servers), and a booked call's copy written (PUT) and removed (DELETE).

The member gives the calendar collection's own address (the one their server shows for
it), so no discovery is needed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import quote, urljoin
from xml.etree.ElementTree import ParseError

from defusedxml.ElementTree import fromstring

from rcxsite.booking.calendars.fetch import CalendarProblem, exchange

_CALDAV = "{urn:ietf:params:xml:ns:caldav}"
_QUERY = """<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><c:calendar-data/></d:prop>
  <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">
    <c:time-range start="{start}" end="{end}"/>
  </c:comp-filter></c:comp-filter></c:filter>
</c:calendar-query>"""
NOT_CALDAV = "The address did not answer as a CalDAV calendar."


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def collection(url: str) -> str:
    return url if url.endswith("/") else url + "/"


def events_between(
    url: str, auth: tuple[str, str], *, since: datetime, until: datetime
) -> list[str]:
    """The iCalendar text of each event object with an occurrence in [since, until)."""
    body = _QUERY.format(start=_stamp(since), end=_stamp(until)).encode()
    answer = exchange(
        "REPORT",
        collection(url),
        auth=auth,
        headers={"Depth": "1", "Content-Type": "application/xml; charset=utf-8"},
        content=body,
        ok=frozenset({207}),
    )
    try:
        tree = fromstring(answer.body)
    except (ParseError, ValueError):
        raise CalendarProblem(NOT_CALDAV) from None
    return [node.text for node in tree.iter(f"{_CALDAV}calendar-data") if node.text]


def href_for(url: str, uid: str) -> str:
    """Where a call's copy lives in the calendar: its UID as the object's name."""
    return urljoin(collection(url), quote(uid, safe="") + ".ics")


def put_event(href: str, auth: tuple[str, str], ics: str) -> None:
    exchange(
        "PUT",
        href,
        auth=auth,
        headers={"Content-Type": "text/calendar; charset=utf-8"},
        content=ics.encode("utf-8"),
        ok=frozenset({200, 201, 204}),
    )


def delete_event(href: str, auth: tuple[str, str]) -> None:
    """Remove a copy; one already gone is removed too."""
    exchange("DELETE", href, auth=auth, ok=frozenset({200, 204, 404, 410}))
