"""Staff members made through the real invitation flow, for the staff tests."""

from __future__ import annotations

from dataclasses import dataclass

from rcxsite.accounts import tokens
from rcxsite.staff import invitations, members, two_factor
from rcxsite.staff.inputs import EnrolmentCodeInput, InviteInput, StaffPasswordInput
from rcxsite.staff.permissions import OPERATOR, StaffActor

STAFF_PASSWORD = "a long staff password 1"
IP = "198.51.100.20"


@dataclass(frozen=True)
class Enrolled:
    actor: StaffActor
    secret: str
    recovery_codes: tuple[str, ...]
    session_digest: str
    cookie_ticket: str


def invite(email: str, role: str = "sales", name: str = "Sam Seller") -> str:
    """The invitation's token (the link's last segment)."""
    form = InviteInput.parse({"email": email, "name": name, "role": role})
    return members.invite(form, actor=OPERATOR).link.rsplit("/", 1)[-1]


def enrol(token: str, *, password: str = STAFF_PASSWORD, client_ip: str = IP) -> Enrolled:
    digest = tokens.token_digest(token)
    enrolment = invitations.choose_password(
        StaffPasswordInput.parse({"new_password": password, "confirm_new_password": password}),
        link_digest=digest, client_ip=client_ip,
    )
    # One step back: the member's first sign-in in a test may use the current step.
    code = two_factor.current_code(enrolment.secret, now=_now() - 30)
    done = invitations.finish_enrolment(EnrolmentCodeInput.parse({"code": code}),
                                        link_digest=digest, client_ip=client_ip)
    return Enrolled(actor=done.actor, secret=enrolment.secret,
                    recovery_codes=done.recovery_codes, session_digest=done.session_digest,
                    cookie_ticket=done.cookie_ticket)


def member(email: str, role: str = "sales", name: str = "Sam Seller") -> Enrolled:
    return enrol(invite(email, role, name))


def _now() -> float:
    import time

    return time.time()
