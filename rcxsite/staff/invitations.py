"""Invitations: the only way in. An admin (or the command line) invites an address; the
member opens the link, chooses a password, enrols an authenticator app and receives ten
recovery codes, and is signed in.

The link's token is stored as a SHA-256 only, works once and for `STAFF_INVITATION_HOURS`.
The screens never hold the token: the websocket middleware seals it like a reset token
(rcxsite/web/sealed_event_paths.py), and they pass the digest inside the sealed value as
`link_digest` (`tokens.marked_digest`); whoever holds the token itself uses
`tokens.token_digest`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from rcxsite.core import audit, one_time_links, paths
from rcxsite.core.passwords import hash_password
from rcxsite.core.permissions import StaffActor
from rcxsite.core.ratelimit import Limit, Reservation, client_key, reserve
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import StaffInvitation, StaffMember, utcnow
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings
from rcxsite.staff import sessions, two_factor
from rcxsite.staff.inputs import EnrolmentCodeInput, StaffPasswordInput
from rcxsite.staff.mail import send_staff_invitation_mail

LINK_INVALID = "This invitation link has expired or was already used. Ask an admin for a new one."
CODE_WRONG = "That code is not right. Enter the 6-digit code your app shows now."
PASSWORD_FIRST = "Choose your password first."


def invitation_link(token: str) -> str:
    # Built from configuration only: a forged Host header must not redirect the link.
    return get_settings().site_url + paths.staff_invite_path(token)


def issue_invitation(session: Session, member: StaffMember, now: datetime | None = None) -> str:
    """A new link for `member` in the caller's transaction (their older links stop working),
    its mail queued in the same transaction (the outbox)."""
    assert member.id is not None
    now = now or utcnow()
    hours = get_settings().staff_invitation_hours
    token = one_time_links.issue(
        session,
        StaffInvitation,
        now=now,
        lifetime=timedelta(hours=hours),
        replacing=True,
        staff_member_id=member.id,
    )
    link = invitation_link(token)
    send_staff_invitation_mail(
        to=member.email, name=member.name, link=link, valid_hours=int(hours), session=session
    )
    return link


def _open_invitation(
    session: Session, digest: str | None, now: datetime
) -> tuple[StaffInvitation, StaffMember]:
    found = (
        None
        if digest is None
        else session.exec(
            select(StaffInvitation, StaffMember)
            .join(StaffMember, col(StaffMember.id) == col(StaffInvitation.staff_member_id))
            .where(
                *one_time_links.open_link(StaffInvitation, digest, now),
                col(StaffMember.disabled_at).is_(None),
            )
        ).first()
    )
    if found is None:
        raise ServiceError(410, LINK_INVALID)
    return found


@dataclass(frozen=True, slots=True)
class InvitationView:
    name: str
    email: str


def check_invitation(*, link_digest: str | None) -> InvitationView:
    with session_scope() as session:
        _, member = _open_invitation(session, link_digest, utcnow())
        return InvitationView(name=member.name, email=member.email)


@dataclass(frozen=True, slots=True)
class Enrolment:
    """What the authenticator app needs: the QR code and the same key as text."""

    qr_svg: str
    secret: str
    grouped_secret: str


def _enrol_attempt(client_ip: str) -> Reservation:
    """A slot of the client's enrolment attempts, taken before the work: a wrong link or
    code keeps it (guessing is limited), a step that succeeds gives it back (a whole
    office behind one address can enrol the same morning)."""
    return reserve(
        Limit(get_settings().staff_login_failure_limit, "staff-enrol", client_key(client_ip))
    )


def choose_password(
    form: StaffPasswordInput, *, link_digest: str | None, client_ip: str
) -> Enrolment:
    """The invitation's first step; the password takes effect only once a code is verified."""
    slot = _enrol_attempt(client_ip)
    password_hash = hash_password(form.new_password)
    secret = two_factor.new_secret()
    with session_scope() as session:
        invitation, member = _open_invitation(session, link_digest, utcnow())
        invitation.pending_password_hash = password_hash
        invitation.pending_totp_secret = two_factor.sealed_secret(secret)
        session.add(invitation)
        email = member.email
    slot.give_back()
    uri = two_factor.provisioning_uri(secret, email=email)
    return Enrolment(
        qr_svg=two_factor.qr_svg(uri),
        secret=secret,
        grouped_secret=two_factor.grouped_secret(secret),
    )


@dataclass(frozen=True, slots=True)
class EnrolmentDone:
    actor: StaffActor
    recovery_codes: tuple[str, ...]
    session_digest: str
    cookie_ticket: str


def finish_enrolment(
    form: EnrolmentCodeInput, *, link_digest: str | None, client_ip: str
) -> EnrolmentDone:
    """The code from the app proves the key was taken: the member is enrolled, gets ten
    recovery codes (shown once) and a session."""
    slot = _enrol_attempt(client_ip)
    now = utcnow()
    codes = two_factor.new_recovery_codes()
    with session_scope() as session:
        invitation, member = _open_invitation(session, link_digest, now)
        if not invitation.pending_password_hash or not invitation.pending_totp_secret:
            raise ServiceError(409, PASSWORD_FIRST)
        step = two_factor.accepted_step(
            two_factor.open_secret(invitation.pending_totp_secret), form.code, last_step=0
        )
        if step is None:
            raise ServiceError(422, CODE_WRONG, fields={"code": CODE_WRONG})
        # Not claimed: the same link finished in another tab a moment ago.
        if not one_time_links.claim(session, StaffInvitation, invitation.token_hash, now):
            raise ServiceError(410, LINK_INVALID)
        assert member.id is not None
        sessions.end_member_sessions(session, member.id)
        member.password_hash = invitation.pending_password_hash
        member.totp_secret = invitation.pending_totp_secret
        member.totp_last_step = step
        member.recovery_code_hashes = two_factor.stored_digests(codes)
        member.last_sign_in_at = now
        session.add(member)
        started = sessions.start_session(session, member.id, now)
        actor = sessions.actor_of(member, client_address=client_ip)
        audit.record(
            session, action="invitation_accepted", actor=actor, target=f"member {member.email}"
        )
        audit.record(session, action="signed_in", actor=actor, target=f"member {member.email}")
    slot.give_back()
    return EnrolmentDone(
        actor=actor,
        recovery_codes=tuple(codes),
        session_digest=started.digest,
        cookie_ticket=started.cookie_ticket,
    )
