"""Members' calendar busy times as the free times read them, kept in this process.

They change only when a calendar is read (every few minutes at most), while the free times
are asked for on every visit of the quote form: reading thousands of stored intervals on
each ask would cost more than the rest of the answer. So each process keeps every
member's intervals with the versions of the calendars they came from, and one small
query per ask says whether any changed (a sync bumps its calendar's `busy_version`; a
calendar connected or removed changes the set). The booking's own check
(`slots.calendar_busy` around one start) always reads the database.
"""

from __future__ import annotations

import threading
from collections import defaultdict

from sqlmodel import Session, col, select

from rcxsite.booking.timeline import Timeline
from rcxsite.models import MemberBusy, MemberCalendar

# member id -> (the versions read: ((calendar id, busy_version), ...), their busy times)
_KEPT: dict[int, tuple[tuple[tuple[int, int], ...], Timeline]] = {}
_LOCK = threading.Lock()


def _versions(session: Session, member_ids: list[int]) -> dict[int, tuple[tuple[int, int], ...]]:
    rows = session.exec(
        select(MemberCalendar.staff_member_id, MemberCalendar.id, MemberCalendar.busy_version)
        .where(col(MemberCalendar.staff_member_id).in_(member_ids))
        .order_by(col(MemberCalendar.id))
    ).all()
    versions: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for member_id, calendar_id, version in rows:
        versions[member_id].append((calendar_id or 0, version))
    return {member_id: tuple(found) for member_id, found in versions.items()}


def _read(session: Session, member_id: int) -> Timeline:
    rows = session.exec(
        select(MemberBusy.starts_at, MemberBusy.ends_at).where(
            MemberBusy.staff_member_id == member_id
        )
    ).all()
    return Timeline.of((start, end) for start, end in rows)


def busy_timelines(session: Session, member_ids: list[int]) -> dict[int, Timeline]:
    """Each member's calendar busy times (those with a connected calendar)."""
    versions = _versions(session, member_ids)
    busy: dict[int, Timeline] = {}
    for member_id, wanted in versions.items():
        kept = _KEPT.get(member_id)
        if kept is None or kept[0] != wanted:
            kept = (wanted, _read(session, member_id))
            with _LOCK:
                _KEPT[member_id] = kept
        busy[member_id] = kept[1]
    for member_id in set(_KEPT) - set(versions) & set(member_ids):
        with _LOCK:
            _KEPT.pop(member_id, None)
    return busy
