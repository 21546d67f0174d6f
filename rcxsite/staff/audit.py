"""The back office's audit log: append-only rows, also written as security log events.

Every staff sign-in (and failed attempt) and every change staff make in the inbox, to
customers and to the team is one `AuditEntry`, written in the same transaction as the
change itself, so the log cannot miss a change that happened nor show one that did not.

Refusals anyone can repeat at will (failed and locked sign-ins, whose target text the
sender chooses, and members' denied actions) are counted instead: one row per kind,
actor, client address (as rate limits count it), target and quarter hour, its `count`
raised in one atomic statement. A flood adds to a handful of rows; the security log
still has one line per refusal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, func, select

from rcxsite.db import session_scope
from rcxsite.leads.export import defuse
from rcxsite.logs import security_event
from rcxsite.models import AuditEntry, StaffMember, utcnow
from rcxsite.ratelimit import client_key
from rcxsite.staff.exports import READ_IN_CHUNKS, bounded_csv
from rcxsite.staff.permissions import Permission, StaffActor, require
from rcxsite.staff_models import ACTION_MAX, CLIENT_ADDRESS_MAX, DETAIL_MAX, TARGET_MAX

PAGE_SIZE = 50
CSV_HEADER = ("time", "actor", "action", "target", "detail", "client_address", "count",
              "last_time")
# What the audit screen can narrow when an export is too large for one download.
EXPORT_FILTERS = "actor, action or dates"
# A repeated refusal adds to its row for this long (the sign-in limits' window), then
# starts a new one: the log still shows when an attack went on.
REPEAT_WINDOW_SECONDS = 15 * 60
DENIED = "denied"


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
    """`record` in a transaction of its own."""
    with session_scope() as session:
        record(session, **entry)  # type: ignore[arg-type]


def _count_repeat(
    *, action: str, actor: StaffActor | None, actor_name: str, target: str, detail: str,
    client_address: str,
) -> None:
    """Add one to the row of this refusal's kind and quarter hour, or start it, in one
    statement (INSERT ... ON CONFLICT DO UPDATE): parallel refusals never make two rows
    of one key nor lose a count, on SQLite and PostgreSQL alike."""
    now = utcnow()
    actor_id = (actor.member_id or None) if actor else None
    action, target = action[:ACTION_MAX], target[:TARGET_MAX]
    place = client_key(client_address)[:CLIENT_ADDRESS_MAX]
    window = int(now.timestamp()) // REPEAT_WINDOW_SECONDS
    key = hashlib.sha256(
        "\n".join((action, str(actor_id or ""), place, target, str(window))).encode()
    ).hexdigest()
    with session_scope() as session:
        dialect = session.get_bind().dialect.name
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        statement = insert(AuditEntry).values(
            actor_id=actor_id, actor_name=(actor.name if actor else actor_name)[:100],
            action=action, target=target, detail=detail[:DETAIL_MAX], client_address=place,
            created_at=now, count=1, last_at=now, repeat_key=key,
        )
        session.exec(statement.on_conflict_do_update(
            index_elements=[col(AuditEntry.repeat_key)],
            set_={"count": col(AuditEntry.count) + 1, "last_at": statement.excluded.last_at},
        ))


def record_repeat(
    *, action: str, actor_name: str = "", target: str = "", detail: str = "",
    client_address: str = "",
) -> None:
    """A refused sign-in (`action` "sign_in_failed", "sign_in_locked", ...), counted on
    its row (see the module's docstring), and one security log line."""
    _count_repeat(action=action, actor=None, actor_name=actor_name, target=target,
                  detail=detail, client_address=client_address)
    security_event(f"staff_{action}", "recorded", client_ip=client_address or None)


def record_denied(actor: StaffActor, *, handler: str, permission: Permission) -> None:
    """A member's call of `handler`, which needs `permission` their role lacks: counted on
    its row (one per member, address, handler and quarter hour) and one security log
    line."""
    _count_repeat(action=DENIED, actor=actor, actor_name="", target=handler,
                  detail=f"needs {permission.value}", client_address=actor.client_address)
    security_event("staff_denied", "refused", client_ip=actor.client_address or None,
                   actor=actor.member_id, handler=handler, permission=permission.value)


def signed_in_from(email: str, client_ip: str, *, since: datetime) -> bool:
    """Whether the member with this (lower-case) email signed in since then from the place
    `client_ip` is in (an IPv4 address, an IPv6 /64), as the "signed_in" entries say."""
    place = client_key(client_ip)
    if not place:
        return False
    with session_scope() as session:
        addresses = session.exec(
            select(AuditEntry.client_address).distinct()
            .join(StaffMember, col(StaffMember.id) == col(AuditEntry.actor_id))
            .where(col(StaffMember.email_key) == email, col(AuditEntry.action) == "signed_in",
                   col(AuditEntry.created_at) >= since)
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
        id=entry.id, created_at=entry.created_at, actor_name=entry.actor_name,
        action=entry.action, target=entry.target, detail=entry.detail,
        client_address=entry.client_address, count=entry.count, last_at=entry.last_at,
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
                yield [defuse(cell) for cell in (
                    entry.created_at.isoformat(), entry.actor_name, entry.action,
                    entry.target, entry.detail, entry.client_address, str(entry.count),
                    entry.last_at.isoformat() if entry.last_at else "",
                )]

        text = bounded_csv(CSV_HEADER, lines(), filters=EXPORT_FILTERS)
    record_now(action="audit_exported", actor=actor)
    return text
