"""The health of mail and jobs, as an admin sees it in the staff office and on the shell:
how many wait, how many failed (with their errors), how long the oldest has waited; and
"Retry" for a failed job."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import update
from sqlmodel import col, func, select

from rcxsite.core.service_errors import ServiceError
from rcxsite.jobs.queue import FAILED, QUEUED
from rcxsite.models.jobs import Job
from rcxsite.models.types import utcnow
from rcxsite.platform.db import session_scope

FAILED_SHOWN = 50
NOT_FAILED = "This job has not failed, or it is no longer there."


@dataclass(frozen=True, slots=True)
class KindHealth:
    kind: str
    queued: int
    failed: int
    oldest_waiting: timedelta | None  # since the oldest queued job became due


@dataclass(frozen=True, slots=True)
class FailedJob:
    id: int
    kind: str
    ref: str
    attempts: int
    last_error: str
    created_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class Health:
    kinds: tuple[KindHealth, ...]
    failed: tuple[FailedJob, ...]  # the newest FAILED_SHOWN

    @property
    def queued(self) -> int:
        return sum(kind.queued for kind in self.kinds)

    @property
    def failed_total(self) -> int:
        return sum(kind.failed for kind in self.kinds)


def queued_count(*, kinds: tuple[str, ...] = (), since: datetime | None = None) -> int:
    """Jobs still queued (of `kinds`; added at or after `since`)."""
    with session_scope() as session:
        query = select(func.count(col(Job.id))).where(col(Job.state) == QUEUED)
        if kinds:
            query = query.where(col(Job.kind).in_(kinds))
        if since is not None:
            query = query.where(col(Job.created_at) >= since)
        return int(session.exec(query).one())


def health(*, now: datetime | None = None) -> Health:
    now = now or utcnow()
    with session_scope() as session:
        counts = session.exec(
            select(Job.kind, Job.state, func.count(col(Job.id)), func.min(Job.due_at))
            .where(col(Job.state).in_((QUEUED, FAILED)))
            .group_by(col(Job.kind), col(Job.state))
        ).all()
        failed = session.exec(
            select(Job)
            .where(col(Job.state) == FAILED)
            .order_by(col(Job.finished_at).desc(), col(Job.id).desc())
            .limit(FAILED_SHOWN)
        ).all()
        rows = [
            FailedJob(
                id=job.id or 0,
                kind=job.kind,
                ref=job.ref,
                attempts=job.attempts,
                last_error=job.last_error,
                created_at=job.created_at,
                finished_at=job.finished_at,
            )
            for job in failed
        ]
    kinds: dict[str, dict[str, object]] = {}
    for kind, state, count, oldest in counts:
        entry = kinds.setdefault(kind, {"queued": 0, "failed": 0, "oldest": None})
        entry[state] = int(count)
        if state == QUEUED and oldest is not None:
            oldest_at = oldest if oldest.tzinfo else oldest.replace(tzinfo=now.tzinfo)
            entry["oldest"] = max(timedelta(0), now - oldest_at)
    return Health(
        kinds=tuple(
            KindHealth(
                kind,
                int(str(v["queued"])),
                int(str(v["failed"])),
                v["oldest"] if isinstance(v["oldest"], timedelta) else None,
            )
            for kind, v in sorted(kinds.items())
        ),
        failed=tuple(rows),
    )


def retry(job_id: int, *, now: datetime | None = None) -> None:
    """A failed job queued again, due now, with a fresh count of attempts and a fresh
    JOB_GIVE_UP_HOURS (counted from now)."""
    now = now or utcnow()
    with session_scope() as session:
        result = session.exec(
            update(Job)
            .where(col(Job.id) == job_id, col(Job.state) == FAILED)
            .values(
                state=QUEUED,
                due_at=now,
                created_at=now,
                attempts=0,
                finished_at=None,
                claimed_until=None,
                claimed_by="",
            )
        )
        if not result.rowcount:
            raise ServiceError(404, NOT_FAILED)
