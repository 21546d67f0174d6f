"""Free call times as a visitor picks them: in their own time zone, a week at a time.

A mixin: the quote page (book a call) and the manage page (reschedule) each have one.
The browser's time zone is asked for once the page has loaded (`detect_time_zone`); the
visitor may change it, and the times shown follow. What is free is the service's answer
(`rcxsite.booking.free_slots`); this state only groups it by the visitor's days.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import TypedDict
from zoneinfo import ZoneInfo

import reflex as rx

from rcxsite import booking
from rcxsite.core.time_zones import place_zones
from rcxsite.core.working_week import CALL_TIMEZONE
from rcxsite.state.service_calls import FormCall

DAYS_AT_A_TIME = 7
SLOTS_BROKEN = "The free times could not be loaded. Please try again in a moment."
_BROWSER_TIME_ZONE = "Intl.DateTimeFormat().resolvedOptions().timeZone"


class TimeView(TypedDict):
    value: str  # the start in UTC, as the form sends it
    label: str  # "09:30" on the visitor's clock


class DayView(TypedDict):
    key: str
    label: str  # "Thursday 26 November", the group's name
    short: str  # "Thu 26 Nov", on the day's button
    count: str  # "16 times" or "No times"
    free: bool
    times: list[TimeView]


def _count(times: int) -> str:
    return "No times" if not times else f"{times} time{'' if times == 1 else 's'}"


def _days(slots: booking.SlotList, zone: ZoneInfo) -> list[DayView]:
    by_day: dict[date, list[TimeView]] = {
        slots.first_day + timedelta(days=n): [] for n in range(slots.days)
    }
    for slot in slots.slots:
        local = slot.start.astimezone(zone)
        by_day.setdefault(local.date(), []).append(
            {"value": booking.utc_text(slot.start), "label": local.strftime("%H:%M")}
        )
    return [
        {
            "key": day.isoformat(),
            "label": f"{day:%A} {day.day} {day:%B}",
            "short": f"{day:%a} {day.day} {day:%b}",
            "count": f"{len(times)} {'time' if len(times) == 1 else 'times'}"
            if times
            else "No times",
            "free": bool(times),
            "times": times,
        }
        for day, times in sorted(by_day.items())
    ]


class SlotPicker(rx.State, mixin=True):
    time_zone: str = CALL_TIMEZONE
    days: list[DayView] = []
    # False once the service said no one takes calls: the form asks for a preference.
    taking_calls: bool = True
    slots_loaded: bool = False
    slots_error: str = ""
    choosing_zone: bool = False
    # The day whose times are shown; the others' stay in the form, hidden, so that a time
    # chosen on one day is still the one sent after looking at another.
    chosen_day: str = ""
    more_to_show: bool = True
    zones: list[str] = []
    _first_day: str = ""
    _shown_days: int = 0

    def _free_times(self) -> Callable[..., booking.SlotList]:
        """The service that answers which times this page may offer."""
        return booking.free_slots

    async def _slots(self, first_day: date | None, days: int) -> booking.SlotList | None:
        fields = {"first_day": first_day.isoformat() if first_day else "", "days": str(days)}
        call = await FormCall.read(booking.SlotQuery, {**fields, "time_zone": self.time_zone})
        outcome = await call.send(self._free_times())
        if not outcome.ok:
            self.slots_error = outcome.message(broken=SLOTS_BROKEN)
            return None
        self.slots_error = ""
        found: booking.SlotList = outcome.result()
        self.taking_calls = found.taking_calls
        return found

    async def _load_slots(self) -> None:
        """The first week from today in the visitor's zone, replacing what was shown."""
        found = await self._slots(None, DAYS_AT_A_TIME)
        self.slots_loaded = True
        if found is None:
            self.days = []
            return
        self._first_day, self._shown_days = found.first_day.isoformat(), found.days
        self.more_to_show = self._more_to_show()
        self.days = _days(found, ZoneInfo(found.time_zone))
        self.chosen_day = next((day["key"] for day in self.days if day["free"]), "")

    def _more_to_show(self) -> bool:
        # Past the booking window no day has a free time.
        return self._shown_days <= booking.rules().window.days

    @rx.event
    async def more_days(self):
        if not self._first_day or not self._more_to_show():
            return
        start = date.fromisoformat(self._first_day) + timedelta(days=self._shown_days)
        found = await self._slots(start, DAYS_AT_A_TIME)
        if found is None:
            return
        self._shown_days += found.days
        self.more_to_show = self._more_to_show()
        more = _days(found, ZoneInfo(found.time_zone))
        self.days = [*self.days, *more]
        self.chosen_day = next((day["key"] for day in more if day["free"]), self.chosen_day)

    @rx.event
    def choose_day(self, key: str) -> None:
        if any(day["key"] == key and day["free"] for day in self.days):
            self.chosen_day = key

    @rx.event
    def detect_time_zone(self):
        """on_load: the browser's time zone, then the times in it."""
        return rx.call_script(_BROWSER_TIME_ZONE, callback=type(self).use_time_zone)

    @rx.event
    async def use_time_zone(self, name: str):
        name = str(name or "")[:64]
        self.time_zone = name if name in place_zones() else CALL_TIMEZONE
        self.choosing_zone = False
        await self._load_slots()

    @rx.event
    def change_time_zone(self):
        self.zones = list(place_zones())
        self.choosing_zone = True
