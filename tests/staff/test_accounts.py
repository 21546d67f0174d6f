"""Staff accounts: invitations, enrolment, two-factor sign-in, sessions and the team."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from sqlalchemy import text
from sqlmodel import Session, col, select, update

from rcxsite.core import tokens
from rcxsite.core.permissions import OPERATOR
from rcxsite.core.ratelimit import RateLimited
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import AuditEntry, StaffInvitation, StaffMember, StaffSession, utcnow
from rcxsite.platform import at_rest
from rcxsite.platform.db import get_engine
from rcxsite.staff import invitations, members, sessions, two_factor
from rcxsite.staff.inputs import (
    EnrolmentCodeInput,
    InviteInput,
    RoleInput,
    StaffPasswordInput,
    StaffSignInInput,
)
from rcxsite.staff.sign_in import SIGN_IN_REFUSED, sign_in
from tests.support.smtp import Mailbox
from tests.support.staff import STAFF_IP as IP
from tests.support.staff import STAFF_PASSWORD, enrol, invite, member


def _sign_in(email: str, code: str, password: str = STAFF_PASSWORD, ip: str = IP):
    return sign_in(
        StaffSignInInput.parse({"email": email, "password": password, "code": code}), client_ip=ip
    )


def _refused(email: str, code: str, password: str = STAFF_PASSWORD) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        _sign_in(email, code, password)
    return refused.value


def _audit_actions() -> list[str]:
    with Session(get_engine()) as session:
        return list(session.exec(select(AuditEntry.action).order_by(col(AuditEntry.id))))


def test_an_invitation_is_mailed_and_stored_as_a_hash_only(mailbox: Mailbox) -> None:
    token = invite("Sam@RCX.example", role="sales")
    mail = mailbox.wait_for("sam@rcx.example")
    assert f"/staff/invite/{token}" in mail.get_body(("plain",)).get_content()
    with Session(get_engine()) as session:
        [row] = session.exec(select(StaffInvitation)).all()
        assert row.token_hash == tokens.token_digest(token) and token not in row.token_hash
        assert timedelta(hours=71) < row.expires_at - utcnow() <= timedelta(hours=72)
        [staff] = session.exec(select(StaffMember)).all()
        assert (staff.role, staff.password_hash, staff.totp_secret) == ("sales", "", "")


def test_enrolment_signs_in_and_hands_out_ten_single_use_recovery_codes() -> None:
    enrolled = member("sam@rcx.example")
    assert enrolled.actor.role == "sales"
    assert sessions.digest_actor(enrolled.session_digest, client_address=IP) == enrolled.actor
    assert len(set(enrolled.recovery_codes)) == 10
    assert all(len(code) == 14 and code.count("-") == 2 for code in enrolled.recovery_codes)
    with Session(get_engine()) as session:
        stored = session.exec(select(StaffMember)).one()
        assert not any(code in stored.recovery_code_hashes for code in enrolled.recovery_codes)
        assert stored.password_hash.startswith("$argon2id$")


def test_an_invitation_works_once_and_not_after_72_hours() -> None:
    token = invite("sam@rcx.example")
    enrol(token)
    with pytest.raises(ServiceError, match="expired or was already used"):
        invitations.check_invitation(link_digest=tokens.token_digest(token))
    second = invite("late@rcx.example")
    with Session(get_engine()) as session:
        session.exec(
            update(StaffInvitation)
            .where(col(StaffInvitation.token_hash) == tokens.token_digest(second))
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
        session.commit()
    with pytest.raises(ServiceError, match="expired or was already used"):
        enrol(second)


def test_the_password_needs_12_characters_and_not_a_common_one() -> None:
    for password, message in (
        ("short pass1", "at least 12 characters"),
        ("password1234", "too common"),
    ):
        with pytest.raises(ServiceError) as refused:
            StaffPasswordInput.parse({"new_password": password, "confirm_new_password": password})
        assert message in refused.value.fields["new_password"]


def test_a_wrong_enrolment_code_keeps_the_invitation_open() -> None:
    token = invite("sam@rcx.example")
    digest = tokens.token_digest(token)
    enrolment = invitations.choose_password(
        StaffPasswordInput.parse(
            {"new_password": STAFF_PASSWORD, "confirm_new_password": STAFF_PASSWORD}
        ),
        link_digest=digest,
        client_ip=IP,
    )
    wrong = f"{(int(two_factor.current_code(enrolment.secret)) + 1) % 1_000_000:06d}"
    with pytest.raises(ServiceError) as refused:
        invitations.finish_enrolment(
            EnrolmentCodeInput.parse({"code": wrong}), link_digest=digest, client_ip=IP
        )
    assert refused.value.fields["code"] == invitations.CODE_WRONG
    assert invitations.check_invitation(link_digest=digest).email == "sam@rcx.example"


def test_an_office_enrols_from_one_address_while_wrong_links_are_limited() -> None:
    # Six members from one address, over the limit of five attempts: successes count not.
    for number in range(6):
        member(f"member{number}@rcx.example")
    for _ in range(5):
        with pytest.raises(ServiceError):
            invitations.choose_password(
                StaffPasswordInput.parse(
                    {"new_password": STAFF_PASSWORD, "confirm_new_password": STAFF_PASSWORD}
                ),
                link_digest=tokens.token_digest("a guessed link"),
                client_ip=IP,
            )
    with pytest.raises(RateLimited):
        enrol(invite("late@rcx.example"))


def test_sign_in_needs_all_three_and_says_one_thing_for_any_wrong_one() -> None:
    enrolled = member("sam@rcx.example")
    code = two_factor.current_code(enrolled.secret)
    for email, given_code, password in (
        ("nobody@rcx.example", code, STAFF_PASSWORD),
        ("sam@rcx.example", code, "a wrong password 12"),
        ("sam@rcx.example", "000000" if code != "000000" else "111111", STAFF_PASSWORD),
        ("sam@rcx.example", "abcd-efgh-jkmn", STAFF_PASSWORD),
    ):
        refusal = _refused(email, given_code, password)
        assert (refusal.status, refusal.message) == (401, SIGN_IN_REFUSED)
    signed_in = _sign_in("SAM@rcx.example", code)
    assert sessions.digest_actor(signed_in.session_digest).member_id == enrolled.actor.member_id
    # Refused sign-ins are counted on one row per email and address (and quarter hour).
    with Session(get_engine()) as session:
        counted: dict[str, int] = {}
        for entry in session.exec(select(AuditEntry).where(AuditEntry.action == "sign_in_failed")):
            counted[entry.target] = counted.get(entry.target, 0) + entry.count
    assert counted == {"nobody@rcx.example": 1, "sam@rcx.example": 3}
    assert _audit_actions()[-1] == "signed_in"


def test_a_code_is_accepted_once() -> None:
    enrolled = member("sam@rcx.example")
    code = two_factor.current_code(enrolled.secret)
    _sign_in("sam@rcx.example", code)
    assert _refused("sam@rcx.example", code).message == SIGN_IN_REFUSED
    # The step before the last accepted one is refused too, though inside the window.
    older = two_factor.current_code(enrolled.secret, now=time.time() - 30)
    assert _refused("sam@rcx.example", older).message == SIGN_IN_REFUSED


def test_a_recovery_code_works_once_in_any_spelling() -> None:
    enrolled = member("sam@rcx.example")
    first = enrolled.recovery_codes[0]
    signed_in = _sign_in("sam@rcx.example", f" {first.upper().replace('-', ' ')} ")
    assert signed_in.recovery_codes_left == 9
    assert _refused("sam@rcx.example", first).message == SIGN_IN_REFUSED
    assert _sign_in("sam@rcx.example", enrolled.recovery_codes[1]).recovery_codes_left == 8


def test_repeated_failures_lock_the_member_and_the_address(configure) -> None:
    configure(staff_login_failure_limit="3 per 15 minutes")
    enrolled = member("sam@rcx.example")
    for _ in range(3):
        _refused("sam@rcx.example", "000000", "a wrong password 12")
    with pytest.raises(RateLimited):
        _sign_in("sam@rcx.example", two_factor.current_code(enrolled.secret))
    assert "sign_in_locked" in _audit_actions()


def test_the_address_has_its_own_higher_limit(configure) -> None:
    configure(
        staff_login_failure_limit="2 per 15 minutes", staff_client_failure_limit="3 per 15 minutes"
    )
    first, second = member("sam@rcx.example"), member("kim@rcx.example", name="Kim Lee")
    for _ in range(2):
        _refused("sam@rcx.example", "000000", "a wrong password 12")
    # Sam is locked; Kim, from the same office address, still signs in.
    with pytest.raises(RateLimited):
        _sign_in("sam@rcx.example", two_factor.current_code(first.secret))
    assert (
        _sign_in("kim@rcx.example", two_factor.current_code(second.secret)).actor.email
        == "kim@rcx.example"
    )
    _refused("kim@rcx.example", "000000", "a wrong password 12")
    with pytest.raises(RateLimited):  # the address's third failure: every member waits
        _sign_in("kim@rcx.example", two_factor.current_code(second.secret))


def test_a_disabled_member_cannot_sign_in_and_loses_their_sessions() -> None:
    member("boss@rcx.example", role="admin", name="Ada Boss")
    enrolled = member("sam@rcx.example")
    members.set_disabled(actor=OPERATOR, member_id=enrolled.actor.member_id, disabled=True)
    assert sessions.digest_actor(enrolled.session_digest) is None
    refusal = _refused("sam@rcx.example", two_factor.current_code(enrolled.secret))
    assert refusal.message == SIGN_IN_REFUSED
    members.set_disabled(actor=OPERATOR, member_id=enrolled.actor.member_id, disabled=False)
    assert _sign_in("sam@rcx.example", two_factor.current_code(enrolled.secret))


def test_a_role_change_ends_the_members_sessions() -> None:
    member("boss@rcx.example", role="admin", name="Ada Boss")
    enrolled = member("sam@rcx.example")
    message = members.change_role(
        RoleInput.parse({"role": "support"}), actor=OPERATOR, member_id=enrolled.actor.member_id
    )
    assert message == "Sam Seller is now Support."
    assert sessions.digest_actor(enrolled.session_digest) is None


def test_sessions_end_after_30_idle_minutes_and_after_12_hours() -> None:
    enrolled = member("sam@rcx.example")
    now = utcnow()
    assert sessions.digest_actor(enrolled.session_digest, now=now + timedelta(minutes=29))
    assert (
        sessions.digest_actor(enrolled.session_digest, now=now + timedelta(minutes=29 + 31)) is None
    )
    second = _sign_in("sam@rcx.example", two_factor.current_code(enrolled.secret))
    moment = utcnow()
    for hours in range(1, 12):  # used every hour: still ends at 12 hours
        assert sessions.digest_actor(
            second.session_digest, now=moment + timedelta(minutes=25 * hours)
        )
    assert (
        sessions.digest_actor(second.session_digest, now=moment + timedelta(hours=12, minutes=1))
        is None
    )


def test_the_cookie_ticket_works_once_within_a_minute() -> None:
    enrolled = member("sam@rcx.example")
    token = sessions.claim_cookie(enrolled.cookie_ticket)
    assert token and sessions.session_digest(token) == enrolled.session_digest
    assert sessions.claim_cookie(enrolled.cookie_ticket) is None
    late = _sign_in("sam@rcx.example", two_factor.current_code(enrolled.secret))
    assert sessions.claim_cookie(late.cookie_ticket, now=utcnow() + timedelta(seconds=61)) is None
    with Session(get_engine()) as session:
        assert all(row.token_hash != token for row in session.exec(select(StaffSession)))


def test_the_last_enabled_admin_can_be_neither_disabled_nor_demoted() -> None:
    boss = member("boss@rcx.example", role="admin", name="Ada Boss")
    for change in (
        lambda: members.set_disabled(actor=OPERATOR, member_id=boss.actor.member_id, disabled=True),
        lambda: members.change_role(
            RoleInput.parse({"role": "sales"}), actor=OPERATOR, member_id=boss.actor.member_id
        ),
    ):
        with pytest.raises(ServiceError, match="last enabled admin"):
            change()
    second = member("second@rcx.example", role="admin", name="Bo Second")
    members.set_disabled(actor=boss.actor, member_id=second.actor.member_id, disabled=True)
    with pytest.raises(ServiceError, match="last enabled admin"):
        members.set_disabled(actor=OPERATOR, member_id=boss.actor.member_id, disabled=True)


def test_only_admins_manage_the_team() -> None:
    seller = member("sam@rcx.example", role="sales")
    helper = member("sue@rcx.example", role="support", name="Sue Support")
    form = InviteInput.parse({"email": "x@rcx.example", "name": "X", "role": "admin"})
    target = seller.actor.member_id
    calls = (
        lambda actor: members.invite(form, actor=actor),
        lambda actor: members.list_members(actor=actor),
        lambda actor: members.set_disabled(actor=actor, member_id=target, disabled=True),
        lambda actor: members.reset_two_factor(actor=actor, member_id=target),
        lambda actor: members.change_role(
            RoleInput.parse({"role": "admin"}), actor=actor, member_id=target
        ),
    )
    for actor in (seller.actor, helper.actor, None):
        for call in calls:
            with pytest.raises(ServiceError) as refused:
                call(actor)
            assert refused.value.status == 403


def test_resetting_two_factor_ends_sessions_and_re_enrols_through_a_new_link() -> None:
    enrolled = member("sam@rcx.example")
    invited = members.reset_two_factor(actor=OPERATOR, member_id=enrolled.actor.member_id)
    assert sessions.digest_actor(enrolled.session_digest) is None
    assert _refused("sam@rcx.example", enrolled.recovery_codes[0]).message == SIGN_IN_REFUSED
    again = enrol(invited.link.rsplit("/", 1)[-1])
    assert again.secret != enrolled.secret
    assert "member_two_factor_reset" in _audit_actions()


def test_inviting_an_enrolled_member_again_is_refused() -> None:
    member("sam@rcx.example")
    with pytest.raises(ServiceError, match="already exists"):
        invite("SAM@rcx.example")


def test_an_authenticator_key_is_stored_sealed_and_opens_only_with_the_server_secret(
    configure,
) -> None:
    enrolled = member("sam@rcx.example")
    with Session(get_engine()) as session:
        stored = session.exec(select(StaffMember)).one().totp_secret
    # A copy of the database alone: no key in it to compute codes from.
    assert stored and enrolled.secret not in stored and stored.startswith(at_rest.PREFIX)
    assert two_factor.open_secret(stored) == enrolled.secret
    assert (
        _sign_in("sam@rcx.example", two_factor.current_code(enrolled.secret)).actor.email
        == "sam@rcx.example"
    )
    # The same database under another server secret opens nothing, and signs no one in.
    configure(secret_key="another server secret, long enough to count " * 2)
    assert two_factor.open_secret(stored) == ""
    assert (
        _refused(
            "sam@rcx.example", two_factor.current_code(enrolled.secret, now=time.time() + 30)
        ).message
        == SIGN_IN_REFUSED
    )


def test_the_migration_seals_plain_keys_already_stored(tmp_path, configure) -> None:
    from alembic.command import downgrade, upgrade

    from tests.support.site import alembic_config

    configure(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'keys.db'}")
    upgrade(alembic_config(), "0007")
    plain = two_factor.new_secret()
    with get_engine().begin() as connection:
        connection.execute(
            text(
                "INSERT INTO staff_member (name, email, email_key, role, password_hash,"
                " totp_secret, totp_last_step, recovery_code_hashes, time_zone, created_at)"
                " VALUES ('Old', 'old@rcx.example', 'old@rcx.example', 'admin', 'h', :key, 0,"
                " '[]', 'UTC', '2026-01-01 00:00:00')"
            ),
            {"key": plain},
        )
    upgrade(alembic_config(), "0008")
    with get_engine().connect() as connection:
        stored = connection.execute(text("SELECT totp_secret FROM staff_member")).scalar_one()
    assert plain not in stored and two_factor.open_secret(stored) == plain
    downgrade(alembic_config(), "0007")
    with get_engine().connect() as connection:
        assert (
            connection.execute(text("SELECT totp_secret FROM staff_member")).scalar_one() == plain
        )
