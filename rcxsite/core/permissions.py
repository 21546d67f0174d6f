"""Who may do what in the back office: roles, permissions and the one check.

Every staff service function takes the acting member (`StaffActor`, resolved by the caller
from a live staff session) and calls `require` first; the screens check the same table
before calling, only to say so sooner. It lives below the features so that any of them
(the inbox, customer support, the coming booking and analytics) checks the same table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, get_args

from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.logs import security_event

Role = Literal["admin", "sales", "support", "hiring"]
ROLES: tuple[Role, ...] = get_args(Role)
ROLE_LABELS: dict[str, str] = {
    "admin": "Admin",
    "sales": "Sales",
    "support": "Support",
    # Recruiters and interviewers: candidates only.
    "hiring": "Hiring",
}

NO_ACCESS = "You don't have access to this page."


class Permission(StrEnum):
    READ_QUOTES = "quotes.read"
    WORK_QUOTES = "quotes.work"  # status, owner, notes, spam, export
    READ_CUSTOMERS = "customers.read"
    ACT_ON_CUSTOMERS = "customers.act"
    MANAGE_TEAM = "team.manage"
    READ_AUDIT = "audit.read"
    OPERATE_JOBS = "jobs.operate"  # mail and job health, "Retry"
    # Hosting booked calls: one's own hours and calls (admins: every host's).
    TAKE_CALLS = "calls.take"
    READ_ANALYTICS = "analytics.read"
    # Candidates: the pipeline, their details and CVs, notes and stage moves.
    HIRE = "candidates.work"


GRANTS: dict[Permission, frozenset[str]] = {
    Permission.READ_QUOTES: frozenset({"admin", "sales", "support"}),
    Permission.WORK_QUOTES: frozenset({"admin", "sales"}),
    Permission.READ_CUSTOMERS: frozenset({"admin", "support"}),
    Permission.ACT_ON_CUSTOMERS: frozenset({"admin", "support"}),
    Permission.MANAGE_TEAM: frozenset({"admin"}),
    Permission.READ_AUDIT: frozenset({"admin"}),
    Permission.OPERATE_JOBS: frozenset({"admin"}),
    Permission.TAKE_CALLS: frozenset({"admin", "sales"}),
    Permission.READ_ANALYTICS: frozenset({"admin", "sales"}),
    Permission.HIRE: frozenset({"admin", "hiring"}),
}


@dataclass(frozen=True, slots=True)
class StaffActor:
    """A member signed in to the back office, as a live session names them."""

    member_id: int
    name: str
    email: str
    role: str
    time_zone: str = ""
    client_address: str = ""


# Whoever runs `python -m rcxsite.staff` on the server: shell access already grants all.
OPERATOR = StaffActor(member_id=0, name="command line", email="", role="admin")


def allowed(actor: StaffActor | None, permission: Permission) -> bool:
    return actor is not None and actor.role in GRANTS[permission]


def require(actor: StaffActor | None, permission: Permission) -> StaffActor:
    """The actor, when their role holds `permission`; otherwise ServiceError 403 (for a
    member, with a security log line: a refused privileged call leaves a trace)."""
    if actor is None:
        raise ServiceError(403, NO_ACCESS)
    if not allowed(actor, permission):
        security_event(
            "staff_denied",
            "refused",
            client_ip=actor.client_address or None,
            actor=actor.member_id,
            permission=permission.value,
            handler="service",
        )
        raise ServiceError(403, NO_ACCESS)
    return actor
