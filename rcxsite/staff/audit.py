"""The back office's audit log screen: one page of entries, the filters it offers, the CSV
export, and whether a member signed in from a place before. The entries are written by
rcxsite.core.audit, in the transaction of each change.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlmodel import col, func, select

from rcxsite.core.audit import record_now
from rcxsite.core.csv_cells import defuse
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.core.ratelimit import client_key
from rcxsite.models import AuditEntry, StaffMember
from rcxsite.platform.db import session_scope
from rcxsite.staff.exports import READ_IN_CHUNKS, bounded_csv

PAGE_SIZE = 50
CSV_HEADER = ("time", "actor", "action", "target", "detail", "client_address", "count", "last_time")
# What the audit screen can narrow when an export is too large for one download.
EXPORT_FILTERS = "actor, action or dates"


def signed_in_from(email: str, client_ip: str, *, since: datetime) -> bool:
    """Whether the member with this (lower-case) email signed in since then from the place
    `client_ip` is in (an IPv4 address, an IPv6 /64), as the "signed_in" entries say."""
    place = client_key(client_ip)
    if not place:
        return False
    with session_scope() as session:
        addresses = session.exec(
            select(AuditEntry.client_address)
            .distinct()
            .join(StaffMember, col(StaffMember.id) == col(AuditEntry.actor_id))
            .where(
                col(StaffMember.email_key) == email,
                col(AuditEntry.action) == "signed_in",
                col(AuditEntry.created_at) >= since,
            )
            .limit(1000)
        ).all()
    return any(client_key(address) == place for address in addresses)


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
    # More than 1 for a repeated refusal, the last of them at `last_at`.
    count: int = 1
    last_at: datetime | None = None


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
        id=entry.id,
        created_at=entry.created_at,
        actor_name=entry.actor_name,
        action=entry.action,
        target=entry.target,
        detail=entry.detail,
        client_address=entry.client_address,
        count=entry.count,
        last_at=entry.last_at,
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
            .offset((page - 1) * PAGE_SIZE)
            .limit(PAGE_SIZE)
        ).all()
        actions = session.exec(
            select(AuditEntry.action).distinct().order_by(col(AuditEntry.action))
        ).all()
        actors = session.exec(
            select(StaffMember.id, StaffMember.name).order_by(col(StaffMember.name))
        ).all()
        return AuditPage(
            rows=[_row(entry) for entry in entries],
            total=total,
            page=page,
            pages=pages,
            actions=list(actions),
            actors=[(i, n) for i, n in actors if i is not None],
        )


def audit_csv(*, actor: StaffActor | None, where: AuditFilter) -> str:
    """Every entry the filter selects, newest first, as CSV (formula-like cells defused);
    one over the size a download may have is refused (ServiceError 413)."""
    require(actor, Permission.READ_AUDIT)
    with session_scope() as session:
        entries = session.exec(
            _filtered(select(AuditEntry), where)
            .order_by(col(AuditEntry.created_at).desc(), col(AuditEntry.id).desc())
            .execution_options(**READ_IN_CHUNKS)
        )

        def lines() -> Iterator[list[str]]:
            for entry in entries:
                yield [
                    defuse(cell)
                    for cell in (
                        entry.created_at.isoformat(),
                        entry.actor_name,
                        entry.action,
                        entry.target,
                        entry.detail,
                        entry.client_address,
                        str(entry.count),
                        entry.last_at.isoformat() if entry.last_at else "",
                    )
                ]

        text = bounded_csv(CSV_HEADER, lines(), filters=EXPORT_FILTERS)
    record_now(action="audit_exported", actor=actor)
    return text
