"""Free call times as a visitor picks them: in their own time zone and on their own
clock, a week at a time.

A mixin: the quote page (book a call) and the manage page (reschedule) each have one.
The browser's time zone and clock (12 or 24 hours, from its locale) are asked for once
the page has loaded (`detect_time_zone`); the visitor may find another zone by city,
country, name or offset, or switch the clock, and the times shown follow. What is free is
the service's answer (`rcxsite.booking.free_slots`); this state only groups it by the
visitor's days. A zone is always shown and sent by its canonical name (a browser's
"Asia/Calcutta" is "Asia/Kolkata").
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import TypedDict
from zoneinfo import ZoneInfo

import reflex as rx

from rcxsite import booking
from rcxsite.booking.wording import clock_text
from rcxsite.core.time_zones import canonical_zone, find_zones, zone_label
from rcxsite.core.working_week import CALL_TIMEZONE
from rcxsite.state.service_calls import FormCall

DAYS_AT_A_TIME = 7
SLOTS_BROKEN = "The free times could not be loaded. Please try again in a moment."
# The zones a search shows at once; a longer list is narrowed by typing.
ZONES_SHOWN = 40
ZONE_QUERY_MAX = 60
# The browser's zone and whether its locale reads a 12-hour clock ("h12"/"h11").
_BROWSER_CLOCK = (
    "[Intl.DateTimeFormat().resolvedOptions().timeZone,"
    " new Intl.DateTimeFormat(undefined, {hour: 'numeric'}).resolvedOptions().hourCycle"
    " || '']"
)


_BROWSER_HOUR_CYCLE = (
    "new Intl.DateTimeFormat(undefined, {hour: 'numeric'}).resolvedOptions().hourCycle || ''"
)


class TimeView(TypedDict):
    value: str  # the start in UTC, as the form sends it
    label: str  # "16:30" on the visitor's clock
    label12: str  # "4:30 PM"


class ZoneView(TypedDict):
    name: str  # "Asia/Kolkata"
    label: str  # "India Standard Time, Kolkata (GMT+5:30)"


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
            {
                "value": booking.utc_text(slot.start),
                "label": clock_text(local),
                "label12": clock_text(local, hour12=True),
            }
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


def _zone_views(query: str) -> tuple[list[ZoneView], str]:
    """The zones a search finds (the first ZONES_SHOWN) and how many, in words."""
    found = find_zones(query)
    views: list[ZoneView] = [{"name": zone.name, "label": zone.label} for zone in found]
    if not found:
        return [], "No time zone matches. Try a city, a country or an offset like GMT+5:30."
    if len(found) > ZONES_SHOWN:
        return views[:ZONES_SHOWN], (
            f"{len(found)} time zones: the first {ZONES_SHOWN} are shown. "
            "Type a city, a country or an offset to narrow them down."
        )
    return views, f"{len(found)} time zone{'' if len(found) == 1 else 's'} found."


class SlotPicker(rx.State, mixin=True):
    time_zone: str = CALL_TIMEZONE
    # The zone in words: "India Standard Time, Kolkata (GMT+5:30)".
    time_zone_label: str = ""
    # Times on a 12-hour clock ("4:30 PM"), as the browser's locale reads them; switchable.
    hour12: bool = False
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
    zones: list[ZoneView] = []
    zones_found: str = ""
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

    def _set_zone(self, name: object) -> None:
        """The zone by its canonical name (an alias read as its zone); the company's for
        a name the zone database does not know."""
        self.time_zone = canonical_zone(str(name or "")[:64]) or CALL_TIMEZONE
        self.time_zone_label = zone_label(self.time_zone)

    @rx.event
    def detect_time_zone(self):
        """on_load: the browser's time zone and clock, then the times in them."""
        return rx.call_script(_BROWSER_CLOCK, callback=type(self).use_browser_clock)

    @rx.event
    async def use_browser_clock(self, found: list[str] | str):
        zone, cycle = found[:2] if isinstance(found, list) and len(found) >= 2 else (found, "")
        self.hour12 = str(cycle) in ("h11", "h12")
        self._set_zone(zone)
        self.choosing_zone = False
        await self._load_slots()

    @rx.event
    async def use_time_zone(self, name: str):
        self._set_zone(name)
        self.choosing_zone = False
        await self._load_slots()

    @rx.event
    def change_time_zone(self):
        self.zones, self.zones_found = _zone_views("")
        self.choosing_zone = True

    @rx.event
    def find_time_zone(self, query: str):
        self.zones, self.zones_found = _zone_views(str(query or "")[:ZONE_QUERY_MAX])

    @rx.event
    def keep_time_zone(self):
        self.choosing_zone = False

    @rx.event
    def detect_clock(self):
        """on_load of a page whose zone is known already (the call's): the clock only."""
        return rx.call_script(_BROWSER_HOUR_CYCLE, callback=type(self).use_hour_cycle)

    @rx.event
    def use_hour_cycle(self, cycle: str):
        self.hour12 = str(cycle) in ("h11", "h12")

    @rx.event
    def use_clock(self, hour12: bool):
        self.hour12 = hour12 is True
