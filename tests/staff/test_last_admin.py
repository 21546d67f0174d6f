"""The company always keeps one admin who can sign in: an enabled admin with a password
and an authenticator app. Demoting, disabling or resetting the two-factor sign-in of the
last one is refused, also when two admins do it to each other at the same moment, and
also from the command line (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

import pytest
from sqlmodel import Session, col, select

from rcxsite.core.permissions import OPERATOR, StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import StaffMember
from rcxsite.platform.db import get_engine
from rcxsite.staff import members
from rcxsite.staff.__main__ import main as command_line
from rcxsite.staff.inputs import RoleInput
from tests.support.fixtures import Configure
from tests.support.parallel import at_once
from tests.support.postgres import sqlite_or_postgres
from tests.support.staff import Enrolled, enrol, invite, member

ROUNDS = 20
LAST_ADMIN = "The last enabled admin can be neither disabled nor demoted."
LAST_ADMIN_TWO_FACTOR = "The last enabled admin's two-factor sign-in cannot be reset."
SALES = RoleInput.parse({"role": "sales"})
ADMIN = RoleInput.parse({"role": "admin"})

Action = Callable[[StaffActor, int], object]
ACTIONS: dict[str, tuple[Action, str]] = {
    "demote": (
        lambda actor, target: members.change_role(SALES, actor=actor, member_id=target),
        LAST_ADMIN,
    ),
    "disable": (
        lambda actor, target: members.set_disabled(actor=actor, member_id=target, disabled=True),
        LAST_ADMIN,
    ),
    "reset-2fa": (
        lambda actor, target: members.reset_two_factor(actor=actor, member_id=target),
        LAST_ADMIN_TWO_FACTOR,
    ),
}


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    """The package's SQLite file, or a scratch PostgreSQL database (skipped when absent)."""
    with sqlite_or_postgres(request.param, configure) as kind:
        yield kind


def _admins_who_can_sign_in() -> list[str]:
    with Session(get_engine()) as session:
        return sorted(
            row.email
            for row in session.exec(
                select(StaffMember).where(
                    StaffMember.role == "admin",
                    col(StaffMember.disabled_at).is_(None),
                    StaffMember.password_hash != "",
                    StaffMember.totp_secret != "",
                )
            )
        )


def _restore(admin: Enrolled, outcome: object) -> Enrolled:
    """The admin an action removed, made an admin who can sign in again."""
    if isinstance(outcome, members.Invited):
        return enrol(outcome.link.rsplit("/", 1)[-1])
    if isinstance(outcome, str):
        members.set_disabled(actor=OPERATOR, member_id=admin.actor.member_id, disabled=False)
        members.change_role(ADMIN, actor=OPERATOR, member_id=admin.actor.member_id)
    return admin


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("demote", "demote"),
        ("disable", "disable"),
        ("demote", "disable"),
        ("reset-2fa", "reset-2fa"),
        ("reset-2fa", "demote"),
    ],
)
def test_two_admins_removing_each_other_at_once_leave_one(
    database: str, first: str, second: str
) -> None:
    ada = member("ada@rcx.example", role="admin", name="Ada Admin")
    bo = member("bo@rcx.example", role="admin", name="Bo Admin")
    (first_action, _), (second_action, _) = ACTIONS[first], ACTIONS[second]
    refusals = {f"409 {ACTIONS[name][1]}" for name in (first, second)}
    lost = []
    for number in range(ROUNDS):
        outcomes = at_once(
            [
                partial(first_action, ada.actor, bo.actor.member_id),
                partial(second_action, bo.actor, ada.actor.member_id),
            ]
        )
        unexpected = [
            outcome
            for outcome in outcomes
            if isinstance(outcome, BaseException) and not isinstance(outcome, ServiceError)
        ]
        assert unexpected == []
        refused = [
            f"{outcome.status} {outcome.message}"
            for outcome in outcomes
            if isinstance(outcome, ServiceError)
        ]
        remaining = _admins_who_can_sign_in()
        if len(remaining) != 1 or len(refused) != 1:
            lost.append((number, remaining))
        assert set(refused) <= refusals
        bo = _restore(bo, outcomes[0])
        ada = _restore(ada, outcomes[1])
        assert _admins_who_can_sign_in() == ["ada@rcx.example", "bo@rcx.example"]
    assert lost == [], (
        f"{database}: in {len(lost)} of {ROUNDS} rounds both admins went "
        "(round, admins left who can sign in)"
    )


def test_an_admin_who_never_enrolled_does_not_count() -> None:
    boss = member("boss@rcx.example", role="admin", name="Ada Boss")
    invite("new@rcx.example", role="admin", name="Nia Newcomer")  # no password, no app yet
    for name, (action, message) in ACTIONS.items():
        with pytest.raises(ServiceError) as refused:
            action(OPERATOR, boss.actor.member_id)
        assert (name, refused.value.status, refused.value.message) == (name, 409, message)
    assert _admins_who_can_sign_in() == ["boss@rcx.example"]
    # The newcomer can be disabled or demoted: the company keeps its one real admin.
    newcomer = members.member_by_email("new@rcx.example")
    assert (
        members.change_role(SALES, actor=boss.actor, member_id=newcomer)
        == "Nia Newcomer is now Sales."
    )


def test_the_last_admins_two_factor_cannot_be_reset_another_admins_can() -> None:
    boss = member("boss@rcx.example", role="admin", name="Ada Boss")
    with pytest.raises(ServiceError) as refused:
        members.reset_two_factor(actor=boss.actor, member_id=boss.actor.member_id)
    assert (refused.value.status, refused.value.message) == (409, LAST_ADMIN_TWO_FACTOR)
    second = member("second@rcx.example", role="admin", name="Bo Second")
    members.reset_two_factor(actor=boss.actor, member_id=second.actor.member_id)
    assert _admins_who_can_sign_in() == ["boss@rcx.example"]


def test_the_command_line_keeps_the_last_admin(capsys: pytest.CaptureFixture[str]) -> None:
    member("boss@rcx.example", role="admin", name="Ada Boss")
    invite("new@rcx.example", role="admin", name="Nia Newcomer")
    capsys.readouterr()
    for command, message in (("reset-2fa", LAST_ADMIN_TWO_FACTOR), ("disable", LAST_ADMIN)):
        assert command_line([command, "boss@rcx.example"]) == 1
        assert capsys.readouterr().err == f"error: {message}\n"
    assert _admins_who_can_sign_in() == ["boss@rcx.example"]
