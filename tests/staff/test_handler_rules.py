"""Every public event handler of a staff state has a permission rule (or is one of the
ways in), so a handler added without a rule fails here."""

from __future__ import annotations

import reflex as rx

import rcxsite.rcxsite  # noqa: F401  (registers every state and page)
from rcxsite.core.permissions import GRANTS, Permission
from rcxsite.state.booking.availability import StaffAvailabilityState
from rcxsite.state.staff.access import STAFF_HANDLERS, STAFF_SCREENS, StaffState


def _all_states() -> list[type[rx.State]]:
    pending, found = [rx.State], []
    while pending:
        state = pending.pop()
        pending.extend(state.get_substates())
        found.append(state)
    return found


def test_every_public_staff_handler_has_a_rule() -> None:
    states = [StaffState, *STAFF_SCREENS]
    # A feature's staff screen is marked wherever the feature keeps it.
    assert StaffAvailabilityState in states and len(states) >= 5
    handlers = {
        f"{state.__name__}.{name}"
        for state in states
        for name in state.event_handlers
        # Reflex's own `setvar` only sets this tab's display vars; staff data comes from
        # checked handlers alone.
        if name != "setvar"
    }
    missing = sorted(handlers - set(STAFF_HANDLERS))
    assert missing == [], f"staff handlers without a rule: {missing}"
    # A state with a checked handler but no `staff_screen` mark would escape this test and
    # the guard of its stored data (StaffState._forget_unless_owner), which go by the mark.
    marked = {state.__name__ for state in states}
    unmarked = sorted({name.split(".")[0] for name in STAFF_HANDLERS} - marked)
    assert unmarked == [], f"staff states without @staff_screen: {unmarked}"
    # Every marked state is one the app registers, once.
    registered = _all_states()
    assert all(state in registered for state in STAFF_SCREENS)
    assert len(set(STAFF_SCREENS)) == len(STAFF_SCREENS)


def test_only_the_ways_in_are_open_and_every_rule_names_a_granted_permission() -> None:
    open_handlers = {name for name, rule in STAFF_HANDLERS.items() if rule is None}
    assert {name.split(".")[0] for name in open_handlers} == {
        "StaffState",
        "StaffSignInState",
        "StaffInviteState",
    }
    assert all(rule in GRANTS for rule in STAFF_HANDLERS.values() if rule is not None)
    assert STAFF_HANDLERS["StaffTeamState.change_role"] is Permission.MANAGE_TEAM
    assert STAFF_HANDLERS["StaffAuditState.export_csv"] is Permission.READ_AUDIT
