"""What the booking mails say: to the visitor (booked, moved, cancelled, reminder) and to
the host (booked, moved, cancelled), in plain text. Times are on the reader's wall clock
with the zone named, since visitor and host are often in different ones.

Pure functions over the rows (or anything with the same fields), so the words can be
read and tested without a database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from rcxsite.content.quote import BUDGETS, SERVICE_CHOICES, TIMELINES, label_of
from rcxsite.core.time_zones import canonical_zone
from rcxsite.core.working_week import CALL_TIMEZONE
from rcxsite.mail.letters import aligned
from rcxsite.models.booking import PHONE
from rcxsite.platform.settings import get_settings


class CallFacts(Protocol):
    """The booking's fields a mail uses (rcxsite.models.Booking)."""

    @property
    def starts_at(self) -> datetime: ...
    @property
    def ends_at(self) -> datetime: ...
    @property
    def visitor_name(self) -> str: ...
    @property
    def visitor_email(self) -> str: ...
    @property
    def visitor_time_zone(self) -> str: ...


class Person(Protocol):
    """A host (rcxsite.models.StaffMember)."""

    @property
    def name(self) -> str: ...
    @property
    def time_zone(self) -> str: ...


class Request(Protocol):
    """The call's quote request (rcxsite.models.QuoteRequest)."""

    @property
    def id(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def email(self) -> str: ...
    @property
    def company(self) -> str: ...
    @property
    def phone(self) -> str: ...
    @property
    def service(self) -> str: ...
    @property
    def budget(self) -> str: ...
    @property
    def timeline(self) -> str: ...
    @property
    def message(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Words:
    subject: str
    text: str


@dataclass(frozen=True, slots=True)
class Place:
    """Where the call happens (rcxsite.booking.meetings): a video call at `meeting_url`
    ("" for a call booked before links: the host sends one), or a phone call to the
    visitor's `phone`."""

    kind: str
    meeting_url: str = ""
    phone: str = ""

    @property
    def by_phone(self) -> bool:
        return self.kind == PHONE

    @property
    def location(self) -> str:
        """The invitation's LOCATION: what a calendar shows as where."""
        if self.by_phone:
            return f"Phone: {self.phone}"
        return self.meeting_url

    def short(self, host_name: str) -> str:
        """One line for a page: "Video call: https://...", "Phone call: ... calls you on ..."."""
        if self.by_phone:
            return f"Phone call: {host_name} calls you on {self.phone}"
        if self.meeting_url:
            return f"Video call: {self.meeting_url}"
        return f"Video call: {host_name} emails you the link"

    def for_visitor(self, host_name: str) -> str:
        if self.by_phone:
            return f"{host_name} will call you on {self.phone}.\n"
        if self.meeting_url:
            return f"Join the video call here:\n{self.meeting_url}\n"
        return f"{host_name} will email you a link for the video call before it starts.\n"

    def for_host(self, visitor_name: str) -> str:
        if self.by_phone:
            return f"Please call {visitor_name} on {self.phone} at that time.\n"
        if self.meeting_url:
            return f"The video call (they have the same link):\n{self.meeting_url}\n"
        return (
            f"Please email {visitor_name} a link for the video call before it starts, "
            "if you have not already. Replying to this mail reaches them.\n"
        )


def zone_name(name: str) -> str:
    """An IANA zone that exists, by its canonical name ("Asia/Calcutta" is
    "Asia/Kolkata"); the company's for "" or an unknown name."""
    return canonical_zone(name) or CALL_TIMEZONE


def clock_text(local: datetime, *, hour12: bool = False) -> str:
    """ "16:30", or on a 12-hour clock "4:30 PM" (as en-US reads it)."""
    if not hour12:
        return f"{local:%H:%M}"
    return f"{local.hour % 12 or 12}:{local.minute:02d} {'AM' if local.hour < 12 else 'PM'}"


def spoken_time(start: datetime, time_zone: str, *, hour12: bool = False) -> str:
    """ "Monday 29 March 2027 at 09:00 (Europe/London)": the start on that zone's clock."""
    local = start.astimezone(ZoneInfo(time_zone))
    # strftime names are English here: the site never switches the process locale.
    at = clock_text(local, hour12=hour12)
    return f"{local:%A} {local.day} {local:%B %Y} at {at} ({time_zone})"


def next_steps(
    start: datetime,
    time_zone: str,
    host_name: str,
    place: Place,
    *,
    moved: bool,
    hour12: bool = False,
) -> str:
    """What the visitor is told after booking or moving a call."""
    when = spoken_time(start, time_zone, hour12=hour12)
    if place.by_phone:
        how = f" {host_name} will call you on {place.phone}."
    elif place.meeting_url:
        how = " It is a video call: join it from the link here or in your invitation."
    else:
        how = ""
    if moved:
        return (
            f"Your call with {host_name} is now on {when}.{how} "
            "A new invitation has been emailed to you."
        )
    return f"Your call with {host_name} is on {when}.{how} An invitation has been emailed to you."


def short_time(moment: datetime, zone: str) -> str:
    """Mon 29 Mar 2027, 09:00 (America/New_York)"""
    name = zone_name(zone)
    local = moment.astimezone(ZoneInfo(name))
    # strftime names are English here: the site never switches the process locale.
    return f"{local:%a} {local.day} {local:%b %Y}, {local:%H:%M} ({name})"


def long_time(start: datetime, end: datetime, zone: str) -> str:
    """Monday 29 March 2027 at 09:00-09:30 (America/New_York)"""
    name = zone_name(zone)
    local, until = start.astimezone(ZoneInfo(name)), end.astimezone(ZoneInfo(name))
    return f"{local:%A} {local.day} {local:%B %Y} at {local:%H:%M}–{until:%H:%M} ({name})"


def relative_time(start: datetime, now: datetime, zone: str) -> str:
    """How soon the call is, as a reminder says it: "in 45 minutes", "in 1 hour",
    "in 3 hours", "today", "tomorrow", "in 2 days" (days on the reader's calendar)."""
    minutes = max(1, round((start - now).total_seconds() / 60))
    if minutes < 45:
        return "in 1 minute" if minutes == 1 else f"in {minutes} minutes"
    hours = round(minutes / 60)
    if hours < 12:
        return "in 1 hour" if hours == 1 else f"in {hours} hours"
    place = ZoneInfo(zone_name(zone))
    days = (start.astimezone(place).date() - now.astimezone(place).date()).days
    if days <= 0:
        return "today"
    return "tomorrow" if days == 1 else f"in {days} days"


def _company() -> str:
    return get_settings().company_name


def _when_and_host(booking: CallFacts, host: Person) -> str:
    when = long_time(booking.starts_at, booking.ends_at, booking.visitor_time_zone)
    return f"When:  {when}\nHost:  {host.name}\n"


def _manage(link: str) -> str:
    return f"Need another time, or can no longer make it? Reschedule or cancel here:\n{link}\n"


# The visitor's mails: Reply-To is the company's calls address under the host's name, so
# "reply to this mail" reaches the team that passes it on to the host.
# `name` is whom to greet, "" for no one by name: the name typed with the booking is not
# proven to be the inbox owner's (rcxsite.booking.notices).


def _hello(name: str) -> str:
    return f"Hello {name},\n\n" if name else "Hello,\n\n"


def visitor_booked(
    booking: CallFacts, host: Person, *, name: str, link: str, place: Place
) -> Words:
    company = _company()
    text = (
        f"{_hello(name)}"
        f"Your call with {company} is booked.\n\n"
        f"{_when_and_host(booking, host)}\n"
        f"{place.for_visitor(host.name)}\n"
        "If there is anything you would like them to read before the call, reply to this "
        "mail.\n\n"
        "To add the call to your calendar, open the attached invitation.\n\n"
        f"{_manage(link)}"
    )
    when = short_time(booking.starts_at, booking.visitor_time_zone)
    return Words(f"Your call with {company} on {when}", text)


def visitor_moved(
    booking: CallFacts,
    host: Person,
    *,
    name: str,
    previous_host: Person | None,
    link: str,
    place: Place,
) -> Words:
    company = _company()
    new_host = (
        f"Your host is now {host.name}.\n"
        if previous_host is not None and previous_host.name != host.name
        else ""
    )
    text = (
        f"{_hello(name)}"
        f"Your call with {company} has moved. The new time:\n\n"
        f"{_when_and_host(booking, host)}\n"
        f"{new_host}{place.for_visitor(host.name)}\n"
        "The attached invitation updates the call in your calendar.\n\n"
        f"{_manage(link)}"
    )
    when = short_time(booking.starts_at, booking.visitor_time_zone)
    return Words(f"Your call with {company} has moved to {when}", text)


def visitor_cancelled(booking: CallFacts, host: Person, *, name: str, link: str) -> Words:
    company = _company()
    when = long_time(booking.starts_at, booking.ends_at, booking.visitor_time_zone)
    text = (
        f"{_hello(name)}"
        f"Your call with {company} on {when}, with {host.name}, is cancelled.\n"
        "The attached invitation removes it from your calendar.\n\n"
        "If you would like to talk another time, choose a new time here; what you told us "
        f"is kept:\n{link}\n"
    )
    subject = (
        f"Cancelled: your call with {company} on "
        f"{short_time(booking.starts_at, booking.visitor_time_zone)}"
    )
    return Words(subject, text)


def visitor_reminder(
    booking: CallFacts, host: Person, *, name: str, link: str, now: datetime, place: Place
) -> Words:
    company = _company()
    soon = relative_time(booking.starts_at, now, booking.visitor_time_zone)
    text = (
        f"{_hello(name)}"
        f"A reminder: your call with {company} is {soon}.\n\n"
        f"{_when_and_host(booking, host)}\n"
        f"{_reminder_place(place, host)}\n"
        f"{_manage(link)}"
    )
    when = short_time(booking.starts_at, booking.visitor_time_zone)
    return Words(f"Reminder: your call with {company} {soon}, {when}", text)


def _reminder_place(place: Place, host: Person) -> str:
    if place.by_phone or place.meeting_url:
        return place.for_visitor(host.name)
    return (
        f"If you have not received the video call link from {host.name} yet, reply to this "
        "mail and they will send it.\n"
    )


# The host's mails: Reply-To is the visitor.


def _details(booking: CallFacts, host: Person, request: Request) -> str:
    own = long_time(booking.starts_at, booking.ends_at, host.time_zone)
    theirs = short_time(booking.starts_at, booking.visitor_time_zone)
    rows = [
        ("When", own),
        ("Their time", theirs),
        ("Name", booking.visitor_name),
        ("Email", booking.visitor_email),
        ("Company", request.company),
        ("Phone", request.phone or "not given"),
        ("Service", label_of(SERVICE_CHOICES, request.service)),
        ("Budget", label_of(BUDGETS, request.budget)),
        ("Timeline", label_of(TIMELINES, request.timeline)),
    ]
    return aligned(rows)


def _inbox(request: Request, staff_link: str) -> str:
    return f"Quote request #{request.id} in the staff inbox:\n{staff_link}\n"


def _host_subject(words: str, booking: CallFacts, host: Person, request: Request) -> str:
    when = short_time(booking.starts_at, host.time_zone)
    return f"{words}: {booking.visitor_name}, {request.company} on {when}"


def host_booked(
    booking: CallFacts, host: Person, request: Request, *, staff_link: str, place: Place
) -> Words:
    text = (
        f"A call was booked on the {_company()} website, and you are its host.\n\n"
        f"{_details(booking, host, request)}\n"
        f"Message:\n{request.message}\n\n"
        f"{place.for_host(booking.visitor_name)}\n"
        "The attached invitation adds the call to your calendar.\n\n"
        f"{_inbox(request, staff_link)}"
    )
    return Words(_host_subject("Call booked", booking, host, request), text)


def host_moved(
    booking: CallFacts,
    host: Person,
    request: Request,
    *,
    staff_link: str,
    taken_over: bool,
    place: Place,
) -> Words:
    """To the host at the new time; `taken_over` when the call was someone else's."""
    opening = (
        "A call has moved to a new time, and you are now its host."
        if taken_over
        else f"Your call with {booking.visitor_name} has moved. The new time:"
    )
    text = (
        f"{opening}\n\n"
        f"{_details(booking, host, request)}\n"
        f"{place.for_host(booking.visitor_name)}\n"
        "The attached invitation updates the call in your calendar.\n\n"
        f"{_inbox(request, staff_link)}"
    )
    return Words(_host_subject("Call moved", booking, host, request), text)


def previous_host_moved(
    booking: CallFacts, previous_host: Person, host: Person, request: Request, *, staff_link: str
) -> Words:
    """To the host who had the call before it moved to a time they are not free."""
    when = short_time(booking.starts_at, previous_host.time_zone)
    text = (
        f"Your call with {booking.visitor_name} ({request.company}) has moved to {when}, "
        f"and {host.name} is its host now. There is nothing more you need to do.\n\n"
        "The attached invitation removes it from your calendar.\n\n"
        f"{_inbox(request, staff_link)}"
    )
    subject = f"Call handed over to {host.name}: {booking.visitor_name}, {request.company}"
    return Words(subject, text)


def host_cancelled(
    booking: CallFacts, host: Person, request: Request, *, staff_link: str, reason: str = ""
) -> Words:
    when = long_time(booking.starts_at, booking.ends_at, host.time_zone)
    given = f"Their reason: {reason}\n\n" if reason else "They gave no reason.\n\n"
    text = (
        f"Your call with {booking.visitor_name} ({request.company}) on {when} is cancelled, "
        "and the time is free for other bookings again.\n\n"
        f"{given}"
        "The attached invitation removes it from your calendar.\n\n"
        f"{_inbox(request, staff_link)}"
    )
    return Words(_host_subject("Call cancelled", booking, host, request), text)


# What the invitations themselves say (their DESCRIPTION).


def visitor_invite_description(host: Person, *, link: str, place: Place) -> str:
    return (
        f"Your call with {_company()}. {place.for_visitor(host.name)}\n"
        f"To reschedule or cancel: {link}"
    )


def host_invite_description(
    booking: CallFacts, request: Request, *, staff_link: str, place: Place
) -> str:
    return (
        f"Call with {booking.visitor_name} ({request.company}, {booking.visitor_email}).\n"
        f"{place.for_host(booking.visitor_name)}\n"
        f"Quote request #{request.id}: {staff_link}"
    )
