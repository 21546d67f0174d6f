"""The back office's audit log: append-only rows, also written as security log events.

Every staff sign-in (and failed attempt) and every change staff make in the inbox, to
customers and to the team is one `AuditEntry`, written in the same transaction as the
change itself, so the log cannot miss a change that happened nor show one that did not.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlmodel import Session, col, func, select

from rcxsite.db import session_scope
from rcxsite.leads.export import defuse
from rcxsite.logs import security_event
from rcxsite.models import AuditEntry, StaffMember
from rcxsite.staff.permissions import Permission, StaffActor, require
from rcxsite.staff_models import ACTION_MAX, DETAIL_MAX, TARGET_MAX

PAGE_SIZE = 50
CSV_HEADER = ("time", "actor", "action", "target", "detail", "client_address")


def record(
    session: Session,
    *,
    action: str,
    actor: StaffActor | None = None,
    actor_name: str = "",
    target: str = "",
    detail: str = "",
    client_address: str = "",
) -> None:
    """Add one entry in the caller's transaction (and one security log line)."""
    session.add(AuditEntry(
        # 0: the command line (rcxsite.staff.permissions.OPERATOR), not a member.
        actor_id=(actor.member_id or None) if actor else None,
        actor_name=(actor.name if actor else actor_name)[:100],
        action=action[:ACTION_MAX],
        target=target[:TARGET_MAX],
        detail=detail[:DETAIL_MAX],
        client_address=(client_address or (actor.client_address if actor else ""))[:64],
    ))
    security_event(
        f"staff_{action}", "recorded",
        client_ip=client_address or (actor.client_address if actor else None) or None,
        actor=actor.member_id if actor else None,
    )


def record_now(**entry: str | StaffActor | None) -> None:
    """`record` in a transaction of its own (a refused sign-in changes nothing else)."""
    with session_scope() as session:
        record(session, **entry)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class AuditFilter:
    actor_id: int | None = None
    action: str = ""
    since: date | None = None
    until: date | None = None


@dataclass(frozen=True, slots=True)
class AuditRow:
    id: int
    created_at: datetime
    actor_name: str
    action: str
    target: str
    detail: str
    client_address: str


@dataclass(frozen=True, slots=True)
class AuditPage:
    rows: Sequence[AuditRow]
    total: int
    page: int
    pages: int
    actions: Sequence[str]
    actors: Sequence[tuple[int, str]]


def _filtered(query, where: AuditFilter):  # type: ignore[no-untyped-def]
    if where.actor_id is not None:
        query = query.where(col(AuditEntry.actor_id) == where.actor_id)
    if where.action:
        query = query.where(col(AuditEntry.action) == where.action)
    if where.since is not None:
        query = query.where(
            col(AuditEntry.created_at) >= datetime.combine(where.since, time.min, tzinfo=UTC)
        )
    if where.until is not None:
        end = datetime.combine(where.until + timedelta(days=1), time.min, tzinfo=UTC)
        query = query.where(col(AuditEntry.created_at) < end)
    return query


def _row(entry: AuditEntry) -> AuditRow:
    assert entry.id is not None
    return AuditRow(
        id=entry.id, created_at=entry.created_at, actor_name=entry.actor_name,
        action=entry.action, target=entry.target, detail=entry.detail,
        client_address=entry.client_address,
    )


def audit_page(*, actor: StaffActor | None, where: AuditFilter, page: int = 1) -> AuditPage:
    """One page of entries, newest first, with what the filters can choose from."""
    require(actor, Permission.READ_AUDIT)
    with session_scope() as session:
        total = session.exec(_filtered(select(func.count(col(AuditEntry.id))), where)).one()
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(max(1, page), pages)
        entries = session.exec(
            _filtered(select(AuditEntry), where)
            .order_by(col(AuditEntry.created_at).desc(), col(AuditEntry.id).desc())
            .offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE)
        ).all()
        actions = session.exec(
            select(AuditEntry.action).distinct().order_by(col(AuditEntry.action))
        ).all()
        actors = session.exec(
            select(StaffMember.id, StaffMember.name).order_by(col(StaffMember.name))
        ).all()
        return AuditPage(
            rows=[_row(entry) for entry in entries], total=total, page=page, pages=pages,
            actions=list(actions), actors=[(i, n) for i, n in actors if i is not None],
        )


def audit_csv(*, actor: StaffActor | None, where: AuditFilter) -> str:
    """Every entry the filter selects, newest first, as CSV (formula-like cells defused)."""
    require(actor, Permission.READ_AUDIT)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    with session_scope() as session:
        entries = session.exec(
            _filtered(select(AuditEntry), where)
            .order_by(col(AuditEntry.created_at).desc(), col(AuditEntry.id).desc())
        )
        for entry in entries:
            writer.writerow([defuse(cell) for cell in (
                entry.created_at.isoformat(), entry.actor_name, entry.action, entry.target,
                entry.detail, entry.client_address,
            )])
    record_now(action="audit_exported", actor=actor)
    return out.getvalue()
