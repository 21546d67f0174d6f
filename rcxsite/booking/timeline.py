"""Taken time as the free times test it: intervals sorted by start, where `reach[i]` is the
latest end among the first i + 1, so one bisection says whether any of them overlaps a
call. Built once per ask for a member's bookings, and once per calendar sync for their
calendars' busy times (rcxsite/booking/busy_cache.py)."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from itertools import accumulate


@dataclass(frozen=True, slots=True)
class Timeline:
    starts: tuple[datetime, ...] = ()
    reach: tuple[datetime, ...] = ()

    @classmethod
    def of(cls, spans: Iterable[tuple[datetime, datetime]]) -> Timeline:
        ordered = sorted(spans)
        return cls(
            starts=tuple(start for start, _ in ordered),
            reach=tuple(accumulate((until for _, until in ordered), max)),
        )

    def overlaps(self, start: datetime, until: datetime) -> bool:
        # Those that start before `until`; one of them overlaps when it ends after start.
        before = bisect.bisect_left(self.starts, until)
        return before > 0 and self.reach[before - 1] > start


EMPTY = Timeline()
