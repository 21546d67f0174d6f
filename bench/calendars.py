"""Members' own calendars in the booked-calls bench (bench/booking.py): the free times when
every member also holds BUSY_PER_MEMBER synced busy intervals, and one calendar of
SYNC_EVENTS events read over local HTTP, parsed (recurring events expanded) and stored."""

from __future__ import annotations

import random
import statistics
import time
from datetime import date, datetime, timedelta

from sqlmodel import Session

BUSY_PER_MEMBER = 500
SYNC_EVENTS = 2000
SYNC_RUNS = 5
SYNC_TARGET_MS = 2000.0


def seed_busy(member_ids: list[int], first_day: date, days: int, now: datetime) -> None:
    """A connected calendar per member with BUSY_PER_MEMBER half-hour busy intervals over
    the month, as a sync leaves them."""
    from sqlalchemy import insert

    from rcxsite.models import MemberBusy, MemberCalendar
    from rcxsite.platform.db import get_engine

    rng = random.Random(11)
    start = datetime.combine(first_day, datetime.min.time(), tzinfo=now.tzinfo)
    with Session(get_engine()) as session:
        for member_id in member_ids:
            calendar = MemberCalendar(
                staff_member_id=member_id,
                kind="ics",
                url=f"https://calendar.example/{member_id}.ics",
                synced_at=now,
                busy_count=BUSY_PER_MEMBER,
            )
            session.add(calendar)
            session.flush()
            rows = []
            for _ in range(BUSY_PER_MEMBER):
                begins = start + timedelta(
                    days=rng.randrange(days), minutes=15 * rng.randrange(7 * 4, 19 * 4)
                )
                rows.append(
                    {
                        "calendar_id": calendar.id,
                        "staff_member_id": member_id,
                        "starts_at": begins,
                        "ends_at": begins + timedelta(minutes=30),
                    }
                )
            session.execute(insert(MemberBusy), rows)
        session.commit()


def remove_all() -> None:
    """Every connected calendar gone (their busy times with them)."""
    from sqlalchemy import delete

    from rcxsite.models import MemberBusy, MemberCalendar
    from rcxsite.platform.db import get_engine

    with Session(get_engine()) as session:
        session.exec(delete(MemberBusy))  # type: ignore[call-overload]
        session.exec(delete(MemberCalendar))  # type: ignore[call-overload]
        session.commit()


def calendar_text(first_day: date, events: int) -> bytes:
    """`events` VEVENTs: nine in ten one-off over the month, one in ten weekly (8 times)."""
    rng = random.Random(7)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//RCX bench//EN"]
    for number in range(events):
        day = first_day + timedelta(days=rng.randrange(31))
        hour = rng.randrange(7, 19)
        lines += [
            "BEGIN:VEVENT",
            f"UID:bench-{number}@rcx.test",
            "DTSTAMP:20270101T000000Z",
            f"DTSTART;TZID=Europe/Berlin:{day:%Y%m%d}T{hour:02d}0000",
            f"DTEND;TZID=Europe/Berlin:{day:%Y%m%d}T{hour:02d}4500",
            f"SUMMARY:Meeting {number}",
        ]
        if number % 10 == 0:
            lines.append("RRULE:FREQ=WEEKLY;COUNT=8")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return ("\r\n".join(lines) + "\r\n").encode()


def measure_sync(member_id: int, first_day: date, now: datetime) -> tuple[list[float], int]:
    """SYNC_RUNS syncs of a SYNC_EVENTS-event calendar after one warm-up: each one's time
    (fetch, parse and expand, store) and the busy intervals it stored."""
    from rcxsite.booking.calendars.sync import sync_calendar
    from rcxsite.models import MemberCalendar
    from rcxsite.platform.db import get_engine
    from tests.support.calendars import ics_server

    with ics_server() as served:
        served.files["calendar.ics"] = calendar_text(first_day, SYNC_EVENTS)
        url = f"{served.url}/calendar.ics"
        with Session(get_engine()) as session:
            calendar = MemberCalendar(staff_member_id=member_id, kind="ics", url=url)
            session.add(calendar)
            session.commit()
            calendar_id = calendar.id or 0
        result = sync_calendar(calendar_id, now=now)
        if not result.ok:
            raise RuntimeError(f"the bench calendar's sync failed: {result.message}")
        timings = []
        for _ in range(SYNC_RUNS):
            started = time.perf_counter()
            result = sync_calendar(calendar_id, now=now)
            timings.append(1000 * (time.perf_counter() - started))
        return timings, result.busy


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0
