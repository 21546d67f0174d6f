"""A member's own calendars block the times visitors may book: a private iCal address served
over HTTP and a CalDAV calendar in a real Radicale, read on connecting, on "Sync now" and by
the periodic job; booked calls written to the CalDAV calendar and removed with them."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar
from sqlmodel import Session, select

from rcxsite import booking
from rcxsite.booking import hours, notices
from rcxsite.booking.calendars import connections, copies, sync
from rcxsite.booking.calendars.copy_jobs import COPY
from rcxsite.booking.calendars.events import busy_intervals
from rcxsite.booking.calendars.fetch import CalendarProblem, check_address
from rcxsite.booking.calendars.inputs import (
    PASSWORD_REQUIRED,
    URL_INVALID,
    WRITE_NEEDS_CALDAV,
    CalendarInput,
)
from rcxsite.booking.hours import may_edit
from rcxsite.booking.hours_inputs import CallSettingsInput
from rcxsite.booking.inputs import CancelInput
from rcxsite.core.permissions import NO_ACCESS, StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.jobs.runner import drain
from rcxsite.models import Booking, Job, MemberBusy, MemberCalendar
from rcxsite.platform.db import get_engine
from rcxsite.staff.__main__ import main as command_line
from tests.support.booking import (
    MONDAY,
    NEW_YORK,
    NOW,
    add_booking,
    at,
    booking_fields,
    slot_starts,
    wall_times,
)
from tests.support.calendars import (
    PASSWORD,
    USER,
    IcsFiles,
    Radicale,
    calendar_text,
    event,
    ics_server,
    radicale,
)
from tests.support.fixtures import Configure
from tests.support.staff import add_member, audit_entries

TUESDAY, WEDNESDAY = MONDAY + timedelta(days=1), MONDAY + timedelta(days=2)
DEFAULT_DAY = 17  # 09:00-17:30, half-hour calls


@pytest.fixture
def private_allowed(configure: Configure) -> None:
    """The test servers listen on 127.0.0.1, as an on-premises calendar server would."""
    configure(calendar_allow_private=True)


@pytest.fixture
def files(private_allowed: None) -> Iterator[IcsFiles]:
    with ics_server() as served:
        yield served


@pytest.fixture
def dav(private_allowed: None, tmp_path: Path) -> Iterator[Radicale]:
    with radicale(tmp_path) as server:
        yield server


def _host(name: str = "Sam Sales") -> StaffActor:
    email = f"{name.lower().replace(' ', '.')}@rcx.example"
    actor = add_member(name, email, "sales")
    hours.set_call_settings(
        CallSettingsInput.parse({"takes_calls": "on"}), actor=actor, member_id=actor.member_id
    )
    return actor


def _connect(actor: StaffActor, **form: Any) -> str:
    return connections.connect(
        CalendarInput.parse(form), actor=actor, member_id=actor.member_id, now=NOW
    )


def _refusal(call: Any, *args: Any, **kwargs: Any) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        call(*args, **kwargs)
    return refused.value


def test_an_ical_address_blocks_exactly_its_busy_times(files: IcsFiles) -> None:
    sam = _host()
    files.files["secret/basic.ics"] = calendar_text(
        # One-off, in New York's zone: 09:00-10:00 there is 14:00-15:00 in London.
        event("ny", "20270301T090000", "20270301T100000", zone=NEW_YORK),
        # Weekly from Tuesday 10:00 UTC (London is on UTC in March).
        event("weekly", at(TUESDAY, "10:00"), at(TUESDAY, "10:30"), rrule="FREQ=WEEKLY;COUNT=4"),
        # All day on Wednesday, on the member's own clock.
        event("away", "20270303", "20270304"),
        # Free and cancelled events take no time.
        event("free", at(MONDAY, "09:00"), at(MONDAY, "10:00"), transparent=True),
        event("off", at(MONDAY, "11:00"), at(MONDAY, "12:00"), cancelled=True),
    ).encode()
    assert len(slot_starts(MONDAY)) == DEFAULT_DAY
    notice = _connect(sam, kind="ics", url=f"{files.url}/secret/basic.ics")
    assert notice == "Calendar connected. Synced: 6 busy times found."
    monday = wall_times(slot_starts(MONDAY))
    # 14:00-15:00 blocks 14:00 and 14:30, and 13:30, whose call and the buffer after it
    # would run into the event; 15:00 is free again.
    assert not {"13:30", "14:00", "14:30"} & set(monday)
    assert {"09:00", "11:00", "13:00", "15:00"} <= set(monday)
    assert len(monday) == DEFAULT_DAY - 3
    assert "10:00" not in wall_times(slot_starts(TUESDAY))
    assert "10:00" not in wall_times(slot_starts(TUESDAY + timedelta(days=7)))
    assert slot_starts(WEDNESDAY) == []
    [shown] = connections.member_calendars(actor=sam, member_id=sam.member_id)
    assert (shown.kind, shown.place, shown.busy_count, shown.failing) == (
        "ics",
        "127.0.0.1/…",
        6,
        False,
    )
    assert [e.action for e in audit_entries()][-1] == "calendar_connected"


def test_a_sync_reads_the_changes_and_a_failed_one_keeps_the_busy_times(files: IcsFiles) -> None:
    sam = _host()
    files.files["cal.ics"] = calendar_text(event("a", at(MONDAY, "09:00"), at(MONDAY, "10:00")))
    _connect(sam, url=f"{files.url}/cal.ics")
    assert wall_times(slot_starts(MONDAY))[0] == "10:00"
    [calendar] = connections.member_calendars(actor=sam, member_id=sam.member_id)
    files.files["cal.ics"] = calendar_text(event("b", at(MONDAY, "16:00"), at(MONDAY, "17:30")))
    me = {"actor": sam, "member_id": sam.member_id, "calendar_id": calendar.id, "now": NOW}
    assert connections.sync_now(**me) == "Synced: 1 busy time found."
    starts = wall_times(slot_starts(MONDAY))
    assert starts[0] == "09:00" and starts[-1] == "15:00"  # the call and its buffer
    # The server loses the file: the failure is said, the busy times found before stay.
    del files.files["cal.ics"]
    refused = _refusal(connections.sync_now, **me)
    assert refused.message == (
        "The calendar could not be read: There is no calendar at this address (HTTP 404)."
    )
    [shown] = connections.member_calendars(actor=sam, member_id=sam.member_id)
    assert shown.failing and shown.sync_error.endswith("(HTTP 404).")
    assert wall_times(slot_starts(MONDAY))[-1] == "15:00"


def test_a_wrong_address_is_refused_with_its_reason_and_nothing_saved(
    files: IcsFiles, configure: Configure
) -> None:
    sam = _host()
    refused = _refusal(_connect, sam, url=f"{files.url}/missing.ics")
    assert refused.fields == {"url": "There is no calendar at this address (HTTP 404)."}
    files.files["page.html"] = b"<html>not a calendar</html>"
    refused = _refusal(_connect, sam, url=f"{files.url}/page.html")
    assert refused.fields == {"url": "The address did not give a calendar in iCalendar format."}
    assert connections.member_calendars(actor=sam, member_id=sam.member_id) == []
    # Private and loopback addresses are refused unless CALENDAR_ALLOW_PRIVATE.
    configure(calendar_allow_private=False)
    files.files["cal.ics"] = calendar_text()
    refused = _refusal(_connect, sam, url=f"{files.url}/cal.ics")
    assert refused.fields["url"].startswith("This address is on a private network")
    for address in ("http://10.0.0.8/cal.ics", "http://[::1]/cal.ics", "http://169.254.169.254/"):
        with pytest.raises(CalendarProblem):
            check_address(address)


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"url": "ftp://calendar.example/x.ics"}, "url", URL_INVALID),
        ({"url": "https://user:pw@calendar.example/x.ics"}, "url", URL_INVALID),
        (
            {"kind": "caldav", "url": "https://dav.example/cal/", "username": "sam"},
            "password",
            PASSWORD_REQUIRED,
        ),
        (
            {"url": "https://calendar.example/x.ics", "write_calls": "on"},
            "write_calls",
            WRITE_NEEDS_CALDAV,
        ),
    ],
)
def test_a_calendar_form_is_validated(form: dict[str, str], field: str, message: str) -> None:
    refused = _refusal(CalendarInput.parse, form)
    assert refused.fields[field] == message


def test_webcal_addresses_are_read_over_https() -> None:
    form = CalendarInput.parse({"url": "webcal://p01-caldav.icloud.com/published/2/abc"})
    assert form.url == "https://p01-caldav.icloud.com/published/2/abc"


def test_only_the_member_or_an_admin_connects_and_removes(files: IcsFiles) -> None:
    sam, kim = _host(), _host("Kim Sales")
    files.files["cal.ics"] = calendar_text(event("a", at(MONDAY, "09:00"), at(MONDAY, "10:00")))
    _connect(sam, url=f"{files.url}/cal.ics")
    [calendar] = connections.member_calendars(actor=sam, member_id=sam.member_id)
    form = CalendarInput.parse({"url": f"{files.url}/cal.ics"})
    for call, kwargs in (
        (connections.connect, {"change": form}),
        (connections.member_calendars, {}),
        (connections.remove, {"calendar_id": calendar.id}),
        (connections.sync_now, {"calendar_id": calendar.id}),
    ):
        refused = _refusal(call, actor=kim, member_id=sam.member_id, **kwargs)
        assert (refused.status, refused.message) == (403, NO_ACCESS)
    # Kim's own page cannot reach Sam's calendar by its id either.
    refused = _refusal(
        connections.remove, actor=kim, member_id=kim.member_id, calendar_id=calendar.id
    )
    assert refused.status == 404
    admin = add_member("Ada Admin", "ada@rcx.example", "admin")
    assert connections.remove(actor=admin, member_id=sam.member_id, calendar_id=calendar.id) == (
        "Calendar removed: its busy times no longer count."
    )
    assert len(slot_starts(MONDAY)) == DEFAULT_DAY
    with Session(get_engine()) as session:
        assert session.exec(select(MemberBusy)).all() == []
    assert may_edit(admin, sam.member_id) == admin


def test_a_caldav_calendar_blocks_its_events_and_the_periodic_sync_reads_new_ones(
    dav: Radicale,
) -> None:
    sam = _host()
    calendar_url = dav.calendar("work")
    dav.put(
        calendar_url,
        "standup",
        calendar_text(
            event("standup", at(MONDAY, "09:00"), at(MONDAY, "09:30"), rrule="FREQ=DAILY;COUNT=5")
        ),
    )
    dav.put(
        calendar_url,
        "lunch",
        calendar_text(event("lunch", "20270301T120000", "20270301T130000", zone=NEW_YORK)),
    )
    dav.put(
        calendar_url,
        "maybe",
        calendar_text(event("maybe", at(MONDAY, "15:00"), at(MONDAY, "16:00"), transparent=True)),
    )
    notice = _connect(sam, kind="caldav", url=calendar_url, username=USER, password=PASSWORD)
    assert notice == "Calendar connected. Synced: 6 busy times found."
    monday = wall_times(slot_starts(MONDAY))
    assert "09:00" not in monday and "17:00" not in monday and "17:30" not in monday
    assert "15:00" in monday  # the transparent event
    assert "09:00" not in wall_times(slot_starts(TUESDAY))
    # The password is sealed at rest.
    with Session(get_engine()) as session:
        [row] = session.exec(select(MemberCalendar)).all()
        assert PASSWORD not in row.password_sealed and row.password_sealed
    # A new event, then the periodic job: planned once the sync is due, and done.
    dav.put(
        calendar_url,
        "review",
        calendar_text(event("review", at(TUESDAY, "14:00"), at(TUESDAY, "15:00"))),
    )
    assert sync.plan_syncs(now=NOW) == 0  # just synced
    later = NOW + timedelta(minutes=10)
    assert sync.plan_syncs(now=later) == 1
    assert sync.plan_syncs(now=later) == 0  # one is waiting already
    with Session(get_engine()) as session:
        [job] = session.exec(select(Job).where(Job.kind == sync.SYNC)).all()
    assert sync.sync_calendar(job_payload(job)["calendar"], now=later).ok
    tuesday = wall_times(slot_starts(TUESDAY))
    assert "14:00" not in tuesday and "14:30" not in tuesday and "15:00" in tuesday


def job_payload(job: Job) -> dict[str, Any]:
    payload = json.loads(job.payload)
    assert isinstance(payload, dict)
    return payload


def test_a_server_down_fails_visibly_and_other_members_are_still_booked(
    dav: Radicale, files: IcsFiles
) -> None:
    sam, kim = _host(), _host("Kim Sales")
    calendar_url = dav.calendar("work")
    _connect(sam, kind="caldav", url=calendar_url, username=USER, password=PASSWORD)
    files.files["kim.ics"] = calendar_text(event("k", at(MONDAY, "09:00"), at(MONDAY, "17:30")))
    _connect(kim, url=f"{files.url}/kim.ics")
    dav.process.terminate()  # type: ignore[attr-defined]
    dav.process.wait(10)  # type: ignore[attr-defined]
    results = {calendar.kind: result for _, calendar, result in sync.sync_all(now=NOW)}
    assert results["ics"].ok
    assert not results["caldav"].ok
    assert results["caldav"].message == "The calendar's server could not be reached."
    [shown] = connections.member_calendars(actor=sam, member_id=sam.member_id)
    assert shown.failing and shown.failed_at is not None
    # Kim is busy all Monday; Sam, whose server is down, still takes calls.
    assert len(slot_starts(MONDAY)) == DEFAULT_DAY
    start = at(MONDAY, "10:00")
    receipt = booking.book(
        booking.BookingInput.parse(booking_fields(start)), client_ip="203.0.113.5", now=NOW
    )
    assert receipt.host_name == "Sam Sales"
    # The job fails for "Mail and jobs" to show; the next period tries again.
    with pytest.raises(Exception, match="could not be reached"):
        sync._sync({"calendar": shown.id})


def test_a_booked_call_is_written_to_the_hosts_calendar_and_leaves_it_when_cancelled(
    dav: Radicale,
) -> None:
    sam = _host()
    calendar_url = dav.calendar("work")
    _connect(
        sam, kind="caldav", url=calendar_url, username=USER, password=PASSWORD, write_calls="on"
    )
    booking_id = add_booking(sam.member_id, at(MONDAY, "10:00"))
    assert copies.update_copies(booking_id) == []
    [name] = dav.objects(calendar_url)
    copy = dav.get(calendar_url + name)
    [written] = Calendar.from_ical(copy.text).walk("VEVENT")
    assert written.decoded("DTSTART") == at(MONDAY, "10:00")
    assert "METHOD" not in Calendar.from_ical(copy.text)
    # Twice is the same as once (a retried job).
    assert copies.update_copies(booking_id) == []
    assert len(dav.objects(calendar_url)) == 1
    # Booked calls in the member's own calendar are busy there, not twice here.
    with Session(get_engine()) as session:
        row = session.get(Booking, booking_id)
        assert row is not None
        row.status, row.active = "cancelled", False
        session.add(row)
        session.commit()
    assert copies.update_copies(booking_id) == []
    assert dav.objects(calendar_url) == []


def test_the_command_line_connects_and_syncs_calendars(
    dav: Radicale,
    files: IcsFiles,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sam = _host()
    files.files["cal.ics"] = calendar_text(event("a", at(MONDAY, "09:00"), at(MONDAY, "10:00")))
    assert command_line(["calendar", sam.email, "--ics", f"{files.url}/cal.ics"]) == 0
    assert "Calendar connected." in capsys.readouterr().out
    calendar_url = dav.calendar("work")
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    assert (
        command_line(
            ["calendar", sam.email, "--caldav", calendar_url, "--user", USER, "--password-stdin"]
        )
        == 0
    )
    capsys.readouterr()
    assert command_line(["sync-calendars"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 2
    assert all(line.startswith(sam.email) and "Synced:" in line for line in printed)
    assert command_line(["calendar", sam.email, "--ics", "ftp://nowhere/x.ics"]) == 1
    assert URL_INVALID in capsys.readouterr().err


def test_a_series_keeps_its_moved_and_skipped_occurrences_beside_one_off_events() -> None:
    """One-off events are read directly; a series (with a moved occurrence, by UID, and an
    EXDATE) through recurring-ical-events, so both paths give the right times."""
    text = "\r\n".join(
        [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//RCX tests//EN",
            "BEGIN:VEVENT",
            "UID:daily",
            "DTSTART:20270301T090000Z",
            "DTEND:20270301T093000Z",
            "RRULE:FREQ=DAILY;COUNT=4",
            "EXDATE:20270303T090000Z",
            "END:VEVENT",
            "BEGIN:VEVENT",
            "UID:daily",
            "RECURRENCE-ID:20270302T090000Z",
            "DTSTART:20270302T150000Z",
            "DTEND:20270302T153000Z",
            "END:VEVENT",
            event("once", at(MONDAY, "12:00"), at(MONDAY, "13:00")),
            "END:VCALENDAR",
            "",
        ]
    )
    busy = busy_intervals(
        [text],
        since=at(MONDAY, "00:00"),
        until=at(MONDAY + timedelta(days=7), "00:00"),
        zone=ZoneInfo("Europe/London"),
    )
    assert [(start.strftime("%a %H:%M"), end.strftime("%H:%M")) for start, end in busy] == [
        ("Mon 09:00", "09:30"),
        ("Mon 12:00", "13:00"),
        ("Tue 15:00", "15:30"),  # moved from 09:00
        ("Thu 09:00", "09:30"),  # Wednesday's is skipped
    ]


def test_a_call_booked_and_cancelled_on_the_site_comes_and_goes_in_the_hosts_calendar(
    dav: Radicale,
) -> None:
    """Through the booking service and the job runner, as the site does it: the booked
    call's announcement plans its copy; the cancel plans its removal."""
    sam = _host()
    calendar_url = dav.calendar("work")
    _connect(
        sam, kind="caldav", url=calendar_url, username=USER, password=PASSWORD, write_calls="on"
    )
    receipt = booking.book(
        booking.BookingInput.parse(booking_fields(at(MONDAY, "10:00"))),
        client_ip="203.0.113.5",
        now=NOW,
    )
    assert drain(timeout=30, kinds=(notices.BOOKED, COPY))
    [name] = dav.objects(calendar_url)
    [written] = Calendar.from_ical(dav.get(calendar_url + name).text).walk("VEVENT")
    assert written.decoded("DTSTART") == at(MONDAY, "10:00")
    booking.cancel(CancelInput.parse({"token": receipt.token}), client_ip="203.0.113.5", now=NOW)
    assert drain(timeout=30, kinds=(COPY,))
    assert dav.objects(calendar_url) == []
