"""Staff sign-in: email, password and a code (authenticator or recovery), checked at once.

One message for any wrong combination, so a refusal says nothing about which part was
wrong or whether the address is a member's. Attempts are counted before anything is
checked, like the customer login; a correct sign-in gives its slots back:

- per member and client address, and per client address: past these that place is
  locked (15 minutes), so wrong attempts from one place cannot lock the member out of
  every other one;
- per member over all addresses, a much higher limit: past it, sign-ins for the member
  from places they have not signed in from lately are slowed, each such place on its own
  (STAFF_SLOW_SIGN_IN_LIMIT) and all of them together capped
  (STAFF_SLOW_SIGN_IN_MEMBER_LIMIT); those from places they have are not. A refused
  slowed attempt still counts at its place, so a place that keeps trying is locked like
  one that keeps failing and cannot take the other places' turns. Many attackers at once
  slow the guessing; they never keep the member out of their office.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import update
from sqlmodel import col, select

from rcxsite.core import audit
from rcxsite.core.passwords import verify_password
from rcxsite.core.permissions import StaffActor
from rcxsite.core.ratelimit import Limit, RateLimited, Reservation, client_key, reserve
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import StaffMember, utcnow
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings
from rcxsite.staff import sessions, two_factor
from rcxsite.staff.audit import signed_in_from
from rcxsite.staff.inputs import StaffSignInInput

logger = logging.getLogger(__name__)

SIGN_IN_REFUSED = "The email, password or code is not correct."
# A place the member signed in from this recently is theirs: never slowed for them.
KNOWN_PLACE_DAYS = 90


@dataclass(frozen=True, slots=True)
class StaffSignedIn:
    actor: StaffActor
    session_digest: str
    cookie_ticket: str
    recovery_codes_left: int | None = None


def _refuse(email: str, client_ip: str, member: StaffMember | None) -> ServiceError:
    audit.record_repeat(
        action="sign_in_failed",
        actor_name=member.name if member else "",
        target=email,
        client_address=client_ip,
    )
    return ServiceError(401, SIGN_IN_REFUSED)


def _reserve_attempt(email: str, client_ip: str) -> Reservation:
    """The attempt's slots (see the module's docstring), or RateLimited, recorded."""
    settings = get_settings()
    place = client_key(client_ip)
    try:
        by_place = reserve(Limit(settings.staff_client_failure_limit, "staff-login:client", place))
    except RateLimited:
        # The address is locked whatever email it names: the row names none, so changing
        # the email on each attempt adds no rows.
        audit.record_repeat(
            action="sign_in_locked", client_address=client_ip, detail="this address's limit"
        )
        raise
    try:
        by_member_there = reserve(
            Limit(
                settings.staff_login_failure_limit, "staff-login:member-client", f"{email}\n{place}"
            )
        )
    except RateLimited:
        by_place.give_back()
        audit.record_repeat(
            action="sign_in_locked",
            target=email,
            client_address=client_ip,
            detail="this member's limit at this address",
        )
        raise
    taken = by_place.keys + by_member_there.keys
    try:
        by_member = reserve(Limit(settings.staff_member_failure_limit, "staff-login:member", email))
        return Reservation(taken + by_member.keys)
    except RateLimited:
        pass
    since = utcnow() - timedelta(days=KNOWN_PLACE_DAYS)
    if signed_in_from(email, client_ip, since=since):
        return Reservation(taken)
    try:
        # Paced per place: one place trying again and again waits for its own turn only.
        paced = reserve(
            Limit(
                settings.staff_slow_sign_in_limit, "staff-login:slowed-place", f"{email}\n{place}"
            ),
            Limit(settings.staff_slow_sign_in_member_limit, "staff-login:slowed", email),
        )
    except RateLimited:
        # The attempt keeps its slots at this place (`taken`): given back, a place could
        # be refused here forever without ever being locked.
        audit.record_repeat(
            action="sign_in_slowed",
            target=email,
            client_address=client_ip,
            detail="many failed sign-ins of this member",
        )
        raise
    return Reservation(taken + paced.keys)


def _accept_code(member: StaffMember, code: str) -> tuple[bool, int | None]:
    """Whether the code is good (struck out or its step recorded, atomically), and how
    many recovery codes are left when one was used."""
    with session_scope() as session:
        step = two_factor.accepted_step(
            two_factor.open_secret(member.totp_secret), code, last_step=member.totp_last_step
        )
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
            .where(
                col(StaffMember.id) == member.id,
                col(StaffMember.recovery_code_hashes) == member.recovery_code_hashes,
            )
            .values(recovery_code_hashes=remaining)
        )
        return bool(taken.rowcount), two_factor.remaining_codes(remaining)


def sign_in(form: StaffSignInInput, *, client_ip: str) -> StaffSignedIn:
    email = form.email.strip().lower()[:254]
    attempt = _reserve_attempt(email, client_ip)
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
        # The browser's zone, until the member chooses one on Availability: their call
        # hours are on that clock, which a sign-in while travelling must not move.
        if form.time_zone and not stored.time_zone:
            stored.time_zone = form.time_zone
        session.add(stored)
        started = sessions.start_session(session, member.id)
        actor = sessions.actor_of(member, client_address=client_ip, time_zone=stored.time_zone)
        audit.record(
            session,
            action="signed_in",
            actor=actor,
            detail="with a recovery code" if codes_left is not None else "",
        )
    return StaffSignedIn(
        actor=actor,
        session_digest=started.digest,
        cookie_ticket=started.cookie_ticket,
        recovery_codes_left=codes_left,
    )


def sign_out(*, digest: str, actor: StaffActor | None) -> None:
    if sessions.end_session(digest) and actor is not None:
        audit.record_now(action="signed_out", actor=actor)
