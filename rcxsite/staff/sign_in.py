"""Staff sign-in: email, password and a code (authenticator or recovery), checked at once.

One message for any wrong combination, so a refusal says nothing about which part was
wrong or whether the address is a member's. Attempts are counted per member and per
client address before anything is checked, like the customer login; a correct sign-in
gives its slot back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy import update
from sqlmodel import col, select

from rcxsite.accounts.passwords import verify_password
from rcxsite.db import session_scope
from rcxsite.models import StaffMember, utcnow
from rcxsite.ratelimit import Limit, RateLimited, client_key, reserve
from rcxsite.service_errors import ServiceError
from rcxsite.settings import get_settings
from rcxsite.staff import audit, sessions, two_factor
from rcxsite.staff.inputs import StaffSignInInput
from rcxsite.staff.permissions import StaffActor

logger = logging.getLogger(__name__)

SIGN_IN_REFUSED = "The email, password or code is not correct."


@dataclass(frozen=True, slots=True)
class StaffSignedIn:
    actor: StaffActor
    session_digest: str
    cookie_ticket: str
    recovery_codes_left: int | None = None


def _refuse(email: str, client_ip: str, member: StaffMember | None) -> ServiceError:
    audit.record_now(action="sign_in_failed", actor_name=member.name if member else "",
                     target=email[:200], client_address=client_ip)
    return ServiceError(401, SIGN_IN_REFUSED)


def _accept_code(member: StaffMember, code: str) -> tuple[bool, int | None]:
    """Whether the code is good (struck out or its step recorded, atomically), and how
    many recovery codes are left when one was used."""
    with session_scope() as session:
        step = two_factor.accepted_step(member.totp_secret, code,
                                        last_step=member.totp_last_step)
        if step is not None:
            # Only a later step than the stored one: two requests with one code cannot
            # both pass.
            taken = session.exec(
                update(StaffMember)
                .where(col(StaffMember.id) == member.id, col(StaffMember.totp_last_step) < step)
                .values(totp_last_step=step)
            )
            return bool(taken.rowcount), None
        remaining = two_factor.strike_out(member.recovery_code_hashes, code)
        if remaining is None:
            return False, None
        taken = session.exec(
            update(StaffMember)
            .where(col(StaffMember.id) == member.id,
                   col(StaffMember.recovery_code_hashes) == member.recovery_code_hashes)
            .values(recovery_code_hashes=remaining)
        )
        return bool(taken.rowcount), two_factor.remaining_codes(remaining)


def sign_in(form: StaffSignInInput, *, client_ip: str) -> StaffSignedIn:
    email = form.email.strip().lower()
    settings = get_settings()
    try:
        attempt = reserve(
            Limit(settings.staff_login_failure_limit, "staff-login:account", email[:254]),
            Limit(settings.staff_client_failure_limit, "staff-login:client",
                  client_key(client_ip)),
        )
    except RateLimited:
        audit.record_now(action="sign_in_locked", target=email[:200], client_address=client_ip)
        raise
    with session_scope() as session:
        member = session.exec(select(StaffMember).where(StaffMember.email_key == email)).first()
        if member is not None:
            session.expunge(member)
    # A dummy hash for unknown addresses and members who never chose a password: the
    # answer takes as long either way.
    stored_hash = member.password_hash if member is not None and member.password_hash else None
    matches, _ = verify_password(form.password, stored_hash)
    if member is None or not matches or member.disabled_at is not None or not member.totp_secret:
        raise _refuse(email, client_ip, member)
    accepted, codes_left = _accept_code(member, form.code)
    if not accepted:
        raise _refuse(email, client_ip, member)
    try:
        attempt.give_back()
    except Exception:  # a counter store hiccup must not fail a correct sign-in
        logger.exception("could not give back a staff sign-in slot")
    assert member.id is not None
    with session_scope() as session:
        stored = session.get(StaffMember, member.id)
        assert stored is not None
        stored.last_sign_in_at = utcnow()
        if form.time_zone:
            stored.time_zone = form.time_zone
        session.add(stored)
        started = sessions.start_session(session, member.id)
        actor = StaffActor(member_id=member.id, name=member.name, email=member.email,
                           role=member.role, time_zone=stored.time_zone,
                           client_address=client_ip)
        audit.record(session, action="signed_in", actor=actor,
                     detail="with a recovery code" if codes_left is not None else "")
    return StaffSignedIn(actor=actor, session_digest=started.digest,
                         cookie_ticket=started.cookie_ticket, recovery_codes_left=codes_left)


def sign_out(*, digest: str, actor: StaffActor | None) -> None:
    if sessions.end_session(digest) and actor is not None:
        audit.record_now(action="signed_out", actor=actor)
