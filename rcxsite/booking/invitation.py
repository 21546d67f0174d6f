"""A booked call as an iCalendar invitation (RFC 5545, sent by mail as iTIP, RFC 5546).

Calendars file an invitation under its UID and keep the copy with the highest SEQUENCE:
one UID for a booking's whole life, and a sequence that grows on every change, make a
rescheduled call move the one entry and a cancelled call remove it, never a second entry.
Times are written on the recipient's wall clock with the VTIMEZONE that says what that
clock meant then (icalendar builds it from zoneinfo), so a call across a change of the
clocks lands at the same instant in every calendar.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Literal
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event, Timezone, vCalAddress
from icalendar.enums import STATUS

from rcxsite.core.working_week import CALL_TIMEZONE

PRODID = "-//RCX//Booking//EN"
# REQUEST and CANCEL are mailed (iTIP); PUBLISH is the file a visitor downloads.
Method = Literal["REQUEST", "CANCEL", "PUBLISH"]

# The VTIMEZONE covers a year either side of the call: every offset the call can need,
# without decades of daylight-saving rules in each mail.
_ZONE_MARGIN = timedelta(days=366)


@dataclass(frozen=True, slots=True)
class CallInvite:
    """What an invitation says. `start`, `end`, `stamp` are UTC-aware; `time_zone` is the
    recipient's ("" = the company's); `description` is written as given (the caller puts
    the link the recipient needs in it); `manage_url` is the entry's URL; `attendee_name`
    "" leaves the attendee's CN out (calendars then show the address)."""

    uid: str
    sequence: int
    start: datetime
    end: datetime
    time_zone: str
    summary: str
    description: str
    # Where the call happens ("" for none): a video call's link, or "Phone: ...".
    location: str
    manage_url: str
    organizer_name: str
    organizer_email: str
    attendee_name: str
    attendee_email: str
    stamp: datetime


def invitation_ics(invite: CallInvite, *, method: Method) -> str:
    """The .ics text (CRLF lines, folded at 75 octets): METHOD:REQUEST for a new or moved
    call, METHOD:CANCEL with STATUS:CANCELLED for a cancelled one."""
    zone = ZoneInfo(invite.time_zone or CALL_TIMEZONE)
    event = Event.new(
        uid=invite.uid,
        sequence=invite.sequence,
        stamp=invite.stamp.astimezone(UTC),
        start=invite.start.astimezone(zone),
        end=invite.end.astimezone(zone),
        summary=invite.summary,
        description=invite.description,
        url=invite.manage_url or None,
        location=invite.location or None,
        status=STATUS.CANCELLED if method == "CANCEL" else STATUS.CONFIRMED,
        organizer=vCalAddress.new(invite.organizer_email, cn=invite.organizer_name),
        attendees=[
            vCalAddress.new(
                invite.attendee_email,
                cn=invite.attendee_name or None,
                role="REQ-PARTICIPANT",
                partstat="NEEDS-ACTION",
                rsvp=True,
            )
        ],
    )
    calendar = Calendar.new(method=method, prodid=PRODID, subcomponents=[event])
    # `new` gives the calendar object a random UID of its own (RFC 7986); an iTIP message
    # is identified by its event's UID alone, and the same call must give the same text.
    calendar.pop("UID", None)
    first, last = (invite.start - _ZONE_MARGIN).year, (invite.end + _ZONE_MARGIN).year
    if calendar.get_missing_tzids():  # none for a recipient on UTC: times end in Z
        calendar.subcomponents.insert(0, _timezone(zone.key, first, last))
    ics: bytes = calendar.to_ical()
    return ics.decode("utf-8")


@lru_cache(maxsize=64)
def _timezone(name: str, first_year: int, last_year: int) -> Timezone:
    """The zone's VTIMEZONE over whole years: building one from zoneinfo costs ~20 ms, and
    every invitation of a year in a zone carries the same. Never changed once made."""
    return Timezone.from_tzid(
        name, first_date=date(first_year, 1, 1), last_date=date(last_year, 12, 31)
    )
