"""Every public event handler of a staff state has a permission rule (or is one of the
ways in), so a handler added without a rule fails here."""

from __future__ import annotations

import reflex as rx

import rcxsite.rcxsite  # noqa: F401  (registers every state and page)
from rcxsite.core.permissions import GRANTS, Permission
from rcxsite.state.staff.access import STAFF_HANDLERS, StaffState

_STAFF_STATE_MODULE = "rcxsite.state.staff"


def _staff_states() -> list[type[rx.State]]:
    pending, found = [rx.State], []
    while pending:
        state = pending.pop()
        pending.extend(state.get_substates())
        if state.__module__.startswith(_STAFF_STATE_MODULE):
            found.append(state)
    return found


def test_every_public_staff_handler_has_a_rule() -> None:
    states = _staff_states()
    assert StaffState in states and len(states) >= 5
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
    # A staff state outside rcxsite/state/staff/ would escape this test and the guard of
    # its stored data (StaffState._forget_unless_owner), which find staff states there.
    outside = sorted({name.split(".")[0] for name in STAFF_HANDLERS} - {s.__name__ for s in states})
    assert outside == [], f"staff states outside {_STAFF_STATE_MODULE}: {outside}"


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
