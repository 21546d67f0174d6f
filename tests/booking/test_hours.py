"""A member's call settings on the Availability page: set, validated, refused, recorded,
and followed at once by the free times visitors see."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest

from rcxsite.booking import hours
from rcxsite.booking.hours_inputs import (
    DATE_INPUT_MAX,
    HOURS_INVALID,
    HOURS_REQUIRED,
    LAST_BEFORE_FIRST,
    TIME_STEP,
    TOO_MANY_INTERVALS,
    CallSettingsInput,
    DayInput,
    TimeOffInput,
    WeekInput,
)
from rcxsite.booking.inputs import TIME_ZONE_UNKNOWN
from rcxsite.core.permissions import NO_ACCESS, StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.staff.__main__ import main as command_line
from tests.support.booking import LONDON, MONDAY, NEW_YORK, NOW, slot_starts, wall_times
from tests.support.fixtures import Configure
from tests.support.postgres import sqlite_or_postgres
from tests.support.staff import add_member, audit_entries

TUESDAY, WEDNESDAY = MONDAY + timedelta(days=1), MONDAY + timedelta(days=2)


def _sales(name: str = "Sam Sales", *, time_zone: str = "") -> StaffActor:
    email = f"{name.lower().replace(' ', '.')}@rcx.example"
    return add_member(name, email, "sales", time_zone=time_zone)


def _takes_calls(actor: StaffActor, time_zone: str = LONDON) -> None:
    hours.set_call_settings(
        CallSettingsInput.parse({"takes_calls": "on", "time_zone": time_zone}),
        actor=actor,
        member_id=actor.member_id,
    )


def _week(**days: str) -> WeekInput:
    """A week form with the named days' hours (mon="10:00-12:00"), the rest empty."""
    return WeekInput.parse(days)


def _refusal(call: Any, *args: Any, **kwargs: Any) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        call(*args, **kwargs)
    return refused.value


def test_a_member_sees_the_default_week_until_they_set_their_own() -> None:
    sam = _sales()
    shown = hours.call_settings(actor=sam, member_id=sam.member_id, now=NOW)
    assert (shown.name, shown.takes_calls, shown.time_zone, shown.default_week) == (
        "Sam Sales",
        False,
        LONDON,
        True,
    )
    assert [(day.name, day.text) for day in shown.week] == [
        ("Monday", "09:00-17:30"),
        ("Tuesday", "09:00-17:30"),
        ("Wednesday", "09:00-17:30"),
        ("Thursday", "09:00-17:30"),
        ("Friday", "09:00-17:30"),
        ("Saturday", ""),
        ("Sunday", ""),
    ]
    assert shown.today == NOW.date()


def test_new_weekly_hours_are_the_slots_visitors_see() -> None:
    sam = _sales()
    assert slot_starts(MONDAY) == []  # takes no calls yet
    _takes_calls(sam)
    assert len(slot_starts(MONDAY)) == 17  # the default day
    notice = hours.set_week(
        _week(mon="10:00-12:00", wed="14:00 - 15:15"), actor=sam, member_id=sam.member_id
    )
    assert notice == "Your weekly hours are saved."
    assert wall_times(slot_starts(MONDAY)) == ["10:00", "10:30", "11:00", "11:30"]
    assert slot_starts(TUESDAY) == []
    # 15:15 leaves room for a call from 14:30, not from 15:00.
    assert wall_times(slot_starts(WEDNESDAY)) == ["14:00", "14:30"]
    shown = hours.call_settings(actor=sam, member_id=sam.member_id, now=NOW)
    assert not shown.default_week
    assert [day.text for day in shown.week[:3]] == ["10:00-12:00", "", "14:00-15:15"]
    # Saved again: the old rows are gone, not added to.
    hours.set_week(_week(tue="09:00-10:00"), actor=sam, member_id=sam.member_id)
    assert slot_starts(MONDAY) == []
    assert wall_times(slot_starts(TUESDAY)) == ["09:00", "09:30"]


def test_hours_are_on_the_members_own_clock() -> None:
    sam = _sales()
    _takes_calls(sam, NEW_YORK)
    hours.set_week(_week(mon="09:00-10:00"), actor=sam, member_id=sam.member_id)
    # 09:00 in New York on 1 March 2027 (before the US change) is 14:00 in London.
    assert wall_times(slot_starts(MONDAY)) == ["14:00", "14:30"]
    assert wall_times(slot_starts(MONDAY), NEW_YORK) == ["09:00", "09:30"]
    shown = hours.call_settings(actor=sam, member_id=sam.member_id, now=NOW)
    assert (shown.takes_calls, shown.time_zone) == (True, NEW_YORK)


def test_turning_calls_off_takes_the_member_out_of_the_slots() -> None:
    sam = _sales()
    _takes_calls(sam)
    notice = hours.set_call_settings(
        CallSettingsInput.parse({"time_zone": LONDON}), actor=sam, member_id=sam.member_id
    )
    assert notice == "Saved: you take no calls, in the Europe/London time zone."
    assert slot_starts(MONDAY) == []


def test_a_lunch_break_leaves_its_gap_in_the_slots() -> None:
    sam = _sales()
    _takes_calls(sam)
    hours.set_week(
        _week(mon="13:30-15:00, 09:00-10:00", tue="09:00–10:00; 11:00 to 12:00"),
        actor=sam,
        member_id=sam.member_id,
    )
    assert wall_times(slot_starts(MONDAY)) == ["09:00", "09:30", "13:30", "14:00", "14:30"]
    assert wall_times(slot_starts(TUESDAY)) == ["09:00", "09:30", "11:00", "11:30"]
    shown = hours.call_settings(actor=sam, member_id=sam.member_id, now=NOW)
    assert [day.text for day in shown.week[:2]] == [
        "09:00-10:00, 13:30-15:00",
        "09:00-10:00, 11:00-12:00",
    ]
    [entry] = [e for e in audit_entries() if e.action == "call_hours_changed"]
    assert entry.detail == "Mon 09:00-10:00, 13:30-15:00; Tue 09:00-10:00, 11:00-12:00"


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"mon": "12:00-09:00"}, "mon", "12:00-09:00: the end must be after the start"),
        ({"fri": "09:00-09:00"}, "fri", "09:00-09:00: the end must be after the start"),
        ({"tue": "09:10-12:00"}, "tue", TIME_STEP),
        ({"sun": "9am-12:00"}, "sun", HOURS_INVALID),
        ({"sat": "-12:00"}, "sat", HOURS_INVALID),
        ({"thu": "09:00-10:00-11:00"}, "thu", HOURS_INVALID),
        ({"wed": "09:00-24:30"}, "wed", "Enter a time as HH:MM, e.g. 09:00"),
        ({"mon": "09:00-12:30, 12:00-17:00"}, "mon", "09:00-12:30 and 12:00-17:00 overlap"),
        ({"mon": "13:00-14:00, 09:00-17:00"}, "mon", "09:00-17:00 and 13:00-14:00 overlap"),
        (
            {"tue": ", ".join(f"{h:02d}:00-{h:02d}:30" for h in range(8, 15))},
            "tue",
            TOO_MANY_INTERVALS,
        ),
        ({"wed": "09:00-10:00, " * 20}, "wed", HOURS_INVALID),
    ],
)
def test_weekly_hours_are_validated(form: dict[str, str], field: str, message: str) -> None:
    refused = _refusal(WeekInput.parse, form)
    assert (refused.status, refused.fields[field]) == (422, message)


def test_intervals_that_touch_are_fine_and_a_week_needs_one_day() -> None:
    week = WeekInput.parse({"mon": "", "tue": "09:00-12:00,12:00-13:00", "wed": "  "})
    assert week.hours() == {1: (("09:00", "12:00"), ("12:00", "13:00"))}
    sam = _sales()
    refused = _refusal(hours.set_week, WeekInput.parse({}), actor=sam, member_id=sam.member_id)
    assert (refused.status, refused.message) == (422, hours.NO_DAYS)


def test_an_unknown_time_zone_is_refused() -> None:
    refused = _refusal(CallSettingsInput.parse, {"takes_calls": "on", "time_zone": "Mars/Olympus"})
    assert refused.fields == {"time_zone": TIME_ZONE_UNKNOWN}
    assert CallSettingsInput.parse({"time_zone": ""}).time_zone == LONDON


def test_only_the_member_or_an_admin_may_change_call_settings() -> None:
    sam, kim = _sales(), _sales("Kim Sales")
    support = add_member("Sue Support", "sue@rcx.example", "support")
    admin = add_member("Ada Admin", "ada@rcx.example", "admin")
    week = _week(mon="10:00-11:00")
    for actor, member_id in (
        (support, support.member_id),
        (support, sam.member_id),
        (kim, sam.member_id),
    ):
        for call, args in (
            (hours.set_week, (week,)),
            (hours.call_settings, ()),
            (
                hours.add_time_off,
                (TimeOffInput.parse({"first_day": "2027-03-01", "last_day": "2027-03-02"}),),
            ),
        ):
            refused = _refusal(call, *args, actor=actor, member_id=member_id)
            assert (refused.status, refused.message) == (403, NO_ACCESS)
    assert _refusal(hours.host_choices, actor=support).status == 403
    assert hours.call_settings(actor=sam, member_id=sam.member_id, now=NOW).default_week
    # An admin sets a salesperson's hours; the audit log says who did what to whom.
    notice = hours.set_week(week, actor=admin, member_id=sam.member_id)
    assert notice == "Sam Sales’s weekly hours are saved."
    assert not hours.call_settings(actor=sam, member_id=sam.member_id, now=NOW).default_week
    [entry] = [e for e in audit_entries() if e.action == "call_hours_changed"]
    assert (entry.actor_name, entry.target, entry.detail) == (
        "Ada Admin",
        "member sam.sales@rcx.example",
        "Mon 10:00-11:00",
    )
    # A support member takes no calls, whoever asks.
    refused = _refusal(hours.set_week, week, actor=admin, member_id=support.member_id)
    assert (refused.status, refused.message) == (409, hours.NOT_A_HOST)
    assert _refusal(hours.call_settings, actor=admin, member_id=999999).status == 404
    # The admin's choice lists the members who may host, never support.
    assert [choice.name for choice in hours.host_choices(actor=admin)] == [
        "Ada Admin",
        "Kim Sales",
        "Sam Sales",
    ]
    assert [choice.name for choice in hours.host_choices(actor=kim)] == ["Kim Sales"]


def test_a_date_override_replaces_the_week_on_its_date() -> None:
    sam = _sales()
    _takes_calls(sam)
    me: dict[str, Any] = {"actor": sam, "member_id": sam.member_id, "now": NOW}
    notice = hours.add_day(
        DayInput.parse({"day": TUESDAY.isoformat(), "hours": "13:00-14:00"}), **me
    )
    assert notice == "Tuesday 2 March 2027: 13:00–14:00 saved."
    assert wall_times(slot_starts(TUESDAY)) == ["13:00", "13:30"]
    hours.add_day(DayInput.parse({"day": MONDAY.isoformat(), "unavailable": "on"}), **me)
    assert slot_starts(MONDAY) == []
    # The same date again replaces its override.
    notice = hours.add_day(
        DayInput.parse({"day": TUESDAY.isoformat(), "hours": "16:00-17:00, 10:00-11:00"}), **me
    )
    assert notice == "Tuesday 2 March 2027: 10:00–11:00, 16:00–17:00 saved."
    assert wall_times(slot_starts(TUESDAY)) == ["10:00", "10:30", "16:00", "16:30"]
    shown = hours.call_settings(actor=sam, member_id=sam.member_id, now=NOW)
    assert [(day.day, day.intervals) for day in shown.days] == [
        (MONDAY, ()),
        (TUESDAY, (("10:00", "11:00"), ("16:00", "17:00"))),
    ]
    removed = hours.remove_day(actor=sam, member_id=sam.member_id, day_id=shown.days[1].id)
    assert removed == "Tuesday 2 March 2027 follows the weekly hours again."
    assert len(slot_starts(TUESDAY)) == 17
    actions = [entry.action for entry in audit_entries()]
    assert actions.count("call_day_set") == 3 and actions.count("call_day_removed") == 1
    # Removed with all its intervals: no row of that date is left behind.
    assert hours.call_settings(actor=sam, member_id=sam.member_id, now=NOW).days[1:] == ()


def test_a_date_override_is_validated() -> None:
    sam = _sales()
    refused = _refusal(DayInput.parse, {"day": "2027-02-30", "hours": "10:00-09:00"})
    assert refused.fields == {
        "day": "Invalid date",
        "hours": "10:00-09:00: the end must be after the start",
    }
    assert _refusal(DayInput.parse, {"hours": "10:00-11:00"}).fields == {
        "day": "Please choose a date"
    }
    assert _refusal(DayInput.parse, {"day": "2027-03-01", "hours": " "}).fields == {
        "hours": HOURS_REQUIRED
    }
    overlapping = {"day": "2027-03-01", "hours": "10:00-11:00, 10:30-12:00"}
    assert _refusal(DayInput.parse, overlapping).fields == {
        "hours": "10:00-11:00 and 10:30-12:00 overlap"
    }
    # Not available: the hours are ignored, whatever they say.
    assert DayInput.parse({"day": "2027-03-01", "unavailable": "on", "hours": "x"}).hours == ()
    # A few blanks around the date are fine; a longer text is refused before it is read.
    padded = "2027-03-01" + " " * (DATE_INPUT_MAX - len("2027-03-01"))
    assert DayInput.parse({"day": padded, "unavailable": "on"}).day == MONDAY
    assert _refusal(DayInput.parse, {"day": padded + " ", "unavailable": "on"}).fields == {
        "day": "Invalid date"
    }
    past = DayInput.parse({"day": "2027-02-27", "unavailable": "on"})
    refused = _refusal(hours.add_day, past, actor=sam, member_id=sam.member_id, now=NOW)
    assert (refused.status, refused.fields) == (422, {"day": hours.PAST_DAY})
    far = DayInput.parse({"day": "2030-01-01", "unavailable": "on"})
    assert _refusal(hours.add_day, far, actor=sam, member_id=sam.member_id, now=NOW).status == 422


def test_time_off_removes_the_slots_of_its_days() -> None:
    sam = _sales()
    _takes_calls(sam)
    away = TimeOffInput.parse({"first_day": MONDAY.isoformat(), "last_day": TUESDAY.isoformat()})
    notice = hours.add_time_off(away, actor=sam, member_id=sam.member_id, now=NOW)
    assert notice == "Time off from Monday 1 March 2027 to Tuesday 2 March 2027 saved."
    assert slot_starts(MONDAY, days=2) == []
    assert len(slot_starts(WEDNESDAY)) == 17
    [entry] = hours.call_settings(actor=sam, member_id=sam.member_id, now=NOW).time_off
    assert (entry.first_day, entry.last_day) == (MONDAY, TUESDAY)
    # Someone else's entry is not this member's to remove.
    kim = _sales("Kim Sales")
    refused = _refusal(
        hours.remove_time_off, actor=kim, member_id=kim.member_id, time_off_id=entry.id
    )
    assert refused.status == 404
    assert hours.remove_time_off(actor=sam, member_id=sam.member_id, time_off_id=entry.id) == (
        "Time off removed."
    )
    assert len(slot_starts(MONDAY)) == 17
    assert [e.action for e in audit_entries()][-2:] == ["time_off_added", "time_off_removed"]


def test_time_off_is_validated() -> None:
    sam = _sales()
    refused = _refusal(TimeOffInput.parse, {"first_day": "2027-03-05", "last_day": "2027-03-01"})
    assert refused.fields == {"last_day": LAST_BEFORE_FIRST}
    started = TimeOffInput.parse({"first_day": "2027-02-27", "last_day": "2027-03-02"})
    refused = _refusal(hours.add_time_off, started, actor=sam, member_id=sam.member_id, now=NOW)
    assert refused.fields == {"first_day": hours.FIRST_DAY_PAST}
    # Today is fine: the member's today, on their own clock.
    today = TimeOffInput.parse({"first_day": "2027-02-28", "last_day": "2027-02-28"})
    assert hours.add_time_off(today, actor=sam, member_id=sam.member_id, now=NOW) == (
        "Time off on Sunday 28 February 2027 saved."
    )
    assert date(2027, 2, 28) == NOW.date()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    with sqlite_or_postgres(request.param, configure) as kind:
        yield kind


def test_every_change_holds_on_both_databases(database: str) -> None:
    """The member's row is locked for each change (FOR NO KEY UPDATE on PostgreSQL)."""
    sam = _sales()
    _takes_calls(sam)
    me: dict[str, Any] = {"actor": sam, "member_id": sam.member_id}
    hours.set_week(_week(mon="10:00-11:00", tue="09:00-10:00"), **me)
    hours.set_week(_week(mon="10:00-11:00, 14:00-15:00"), **me)
    hours.add_day(DayInput.parse({"day": MONDAY.isoformat(), "unavailable": "on"}), now=NOW, **me)
    # A date's intervals replaced by others (the unique row per interval holds).
    tuesday = {"day": TUESDAY.isoformat(), "hours": "09:00-10:00, 11:00-12:00"}
    hours.add_day(DayInput.parse(tuesday), now=NOW, **me)
    hours.add_day(DayInput.parse({**tuesday, "hours": "09:00-10:00, 16:00-17:00"}), now=NOW, **me)
    away = TimeOffInput.parse({"first_day": "2027-03-09", "last_day": "2027-03-10"})
    hours.add_time_off(away, now=NOW, **me)
    shown = hours.call_settings(now=NOW, **me)
    assert [day.weekday for day in shown.week if day.on] == [0]
    assert [(day.day, day.intervals) for day in shown.days] == [
        (MONDAY, ()),
        (TUESDAY, (("09:00", "10:00"), ("16:00", "17:00"))),
    ]
    assert [(t.first_day, t.last_day) for t in shown.time_off] == [
        (date(2027, 3, 9), date(2027, 3, 10))
    ]
    assert wall_times(slot_starts(TUESDAY)) == ["09:00", "09:30", "16:00", "16:30"]
    # Tuesday the 2nd's override, then Monday the 8th's two intervals.
    assert wall_times(slot_starts(MONDAY, days=8)) == [
        *("09:00", "09:30", "16:00", "16:30"),
        *("10:00", "10:30", "14:00", "14:30"),
    ]
    hours.remove_day(day_id=shown.days[0].id, **me)
    hours.remove_day(day_id=shown.days[1].id, **me)
    assert hours.call_settings(now=NOW, **me).days == ()
    hours.remove_time_off(time_off_id=shown.time_off[0].id, **me)
    assert len(slot_starts(MONDAY, days=15)) == 3 * 4


def test_an_admin_sets_hours_with_breaks_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sam = _sales()
    _takes_calls(sam)
    assert (
        command_line(
            [
                "hours",
                sam.email,
                "--day",
                "mon",
                "--day",
                "wed",
                "--intervals",
                "09:00-12:30,13:30-17:30",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out.splitlines()
    assert printed[:4] == [
        "Sam Sales’s weekly hours are saved.",
        "Monday: 09:00-12:30, 13:30-17:30",
        "Tuesday: 09:00-17:30",  # the default week's other days are kept
        "Wednesday: 09:00-12:30, 13:30-17:30",
    ]
    assert printed[-1] == "Sunday: no calls"
    starts = wall_times(slot_starts(MONDAY))
    assert "12:00" in starts and "12:30" not in starts and "13:00" not in starts
    assert "13:30" in starts
    # A day emptied takes no calls; a bad interval is refused with its message.
    assert command_line(["hours", sam.email, "--day", "mon", "--intervals", ""]) == 0
    assert slot_starts(MONDAY) == []
    assert command_line(["hours", sam.email, "--day", "tue", "--intervals", "9-5"]) == 1
    assert capsys.readouterr().err.strip().endswith(f"tue: {HOURS_INVALID}")
