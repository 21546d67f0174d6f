"""The job table's operations: add and cancel (in the caller's transaction), and the
runner's claim, finish and retry.

A job is added with the change that causes it, in the same transaction: if the change
rolls back, so does the job; once it commits, the job is there for a runner even if this
process dies the next moment. Runners claim due jobs under a lease (`claimed_until`): on
PostgreSQL with `FOR UPDATE SKIP LOCKED`, so several runners take different jobs without
waiting on each other; on SQLite under the database's write lock (BEGIN IMMEDIATE). A
runner that dies holding a claim lets the lease run out, and the job is due again.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, or_, true, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, select

from rcxsite.models.jobs import JOB_ERROR_MAX, Job, PeriodicRun
from rcxsite.models.types import utcnow
from rcxsite.platform.db import session_scope
from rcxsite.platform.logs import security_event
from rcxsite.platform.settings import get_settings

logger = logging.getLogger(__name__)

QUEUED, DONE, FAILED, CANCELLED = "queued", "done", "failed", "cancelled"


class Permanent(Exception):
    """Raised by a job's handler when a retry cannot help (a refused recipient)."""


def add(
    session: Session,
    *,
    kind: str,
    payload: dict[str, Any] | str = "",
    due_at: datetime | None = None,
    ref: str = "",
) -> Job:
    """A job in the caller's transaction: it exists exactly when the caller's change does.
    `due_at`: not before then (now when omitted); `ref`: what it is about, for `cancel`."""
    job = new(kind=kind, payload=payload, due_at=due_at, ref=ref)
    session.add(job)
    return job


def new(
    *,
    kind: str,
    payload: dict[str, Any] | str = "",
    due_at: datetime | None = None,
    ref: str = "",
) -> Job:
    """A job row not yet in any transaction (for a writer that inserts it itself)."""
    return Job(
        kind=kind,
        ref=ref,
        due_at=due_at or utcnow(),
        payload=payload if isinstance(payload, str) else json.dumps(payload),
    )


def cancel(session: Session, *, ref: str) -> int:
    """Cancel every queued job about `ref` (a call that was cancelled); how many."""
    result = session.exec(
        update(Job)
        .where(col(Job.ref) == ref, col(Job.state) == QUEUED)
        .values(state=CANCELLED, finished_at=utcnow(), payload="")
    )
    return int(result.rowcount or 0)


@dataclass(frozen=True, slots=True)
class Claimed:
    id: int
    kind: str
    payload: str
    attempts: int
    created_at: datetime


def claim(
    *, runner: str, limit: int = 10, kinds: tuple[str, ...] = (), now: datetime | None = None
) -> list[Claimed]:
    """Up to `limit` due jobs, claimed by `runner` for one lease, oldest first."""
    now = now or utcnow()
    lease = timedelta(seconds=get_settings().job_lease_seconds)
    with session_scope(for_update=True) as session:
        due = (
            select(Job.id)
            .where(
                col(Job.state) == QUEUED,
                col(Job.due_at) <= now,
                or_(col(Job.claimed_until).is_(None), col(Job.claimed_until) < now),
            )
            .order_by(col(Job.due_at), col(Job.id))
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        if kinds:
            due = due.where(col(Job.kind).in_(kinds))
        ids = list(session.exec(due).all())
        if not ids:
            return []
        session.exec(
            update(Job)
            .where(col(Job.id).in_(ids))
            .values(claimed_until=now + lease, claimed_by=runner, attempts=Job.attempts + 1)
        )
        jobs = session.exec(
            select(Job).where(col(Job.id).in_(ids)).order_by(col(Job.due_at), col(Job.id))
        ).all()
        return [
            Claimed(
                id=job.id or 0,
                kind=job.kind,
                payload=job.payload,
                attempts=job.attempts,
                created_at=job.created_at,
            )
            for job in jobs
        ]


def renew(job: Claimed, *, runner: str, now: datetime | None = None) -> bool:
    """Right before `runner` does `job`: a fresh lease, if the claim is still its own. A
    batch's later jobs may wait behind a slow mail server past their first lease, and
    another runner may have taken them over meanwhile: those are skipped, not done twice."""
    now = now or utcnow()
    lease = timedelta(seconds=get_settings().job_lease_seconds)
    return _update_own_claim(
        job, runner=runner, also=col(Job.claimed_until) > now, claimed_until=now + lease
    )


def _update_own_claim(
    job: Claimed, *, runner: str, also: ColumnElement[bool] | None = None, **values: Any
) -> bool:
    """Write `values` to `job` if `runner` still holds this attempt's claim (and `also`
    holds); False when another runner took it over or it was cancelled meanwhile."""
    with session_scope() as session:
        result = session.exec(
            update(Job)
            .where(
                col(Job.id) == job.id,
                col(Job.claimed_by) == runner,
                col(Job.state) == QUEUED,
                col(Job.attempts) == job.attempts,
                also if also is not None else true(),
            )
            .values(**values)
        )
        return bool(result.rowcount)


def retry_delay(attempts: int) -> float:
    """The wait after the `attempts`-th failed attempt (1-based)."""
    delays = get_settings().job_retry_delays
    return delays[min(attempts, len(delays)) - 1]


def finish(
    job: Claimed,
    *,
    runner: str,
    error: BaseException | None = None,
    permanent: bool = False,
    now: datetime | None = None,
) -> str:
    """Record how an attempt went: done, due again after a wait, or failed for good once
    a retry cannot help or the job is JOB_GIVE_UP_HOURS old. A job whose claim this runner
    lost (its lease ran out and another runner took it, or it was cancelled meanwhile) is
    left to whoever holds it. Returns the job's new state ("" when left alone)."""
    now = now or utcnow()
    settings = get_settings()
    if error is None:
        values: dict[str, Any] = {
            "state": DONE,
            "finished_at": now,
            "payload": "",
            "claimed_until": None,
            "last_error": "",
        }
    else:
        message = f"{type(error).__name__}: {error}"[:JOB_ERROR_MAX]
        too_old = now - job.created_at >= timedelta(hours=settings.job_give_up_hours)
        if permanent or too_old:
            values = {
                "state": FAILED,
                "finished_at": now,
                "claimed_until": None,
                "last_error": message,
            }
        else:
            values = {
                "due_at": now + timedelta(seconds=retry_delay(job.attempts)),
                "claimed_until": None,
                "last_error": message,
            }
    if not _update_own_claim(job, runner=runner, **values):
        return ""
    state = str(values.get("state", QUEUED))
    if state == FAILED:
        logger.error(
            "Gave up on job %s (%s) after %d attempt(s): %s",
            job.id,
            job.kind,
            job.attempts,
            values["last_error"],
        )
        security_event(
            f"{job.kind}_failed",
            "failed",
            job=job.id,
            attempts=job.attempts,
            error=str(values["last_error"])[:200],
        )
    elif error is not None:
        logger.warning(
            "Job %s (%s) failed (attempt %d), due again in %.0f s: %s",
            job.id,
            job.kind,
            job.attempts,
            retry_delay(job.attempts),
            values["last_error"],
        )
    return state


def claim_period(
    name: str, every_seconds: int, *, runner: str, now: datetime | None = None
) -> bool:
    """Whether `runner` is the one to run periodic job `name` for the current period:
    runners race to move its period on, and the database lets one of them."""
    now = now or utcnow()
    period = int(now.timestamp() // every_seconds)
    with session_scope() as session:
        dialect = session.get_bind().dialect.name
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        session.exec(
            insert(PeriodicRun)
            .values(name=name, period=0)
            .on_conflict_do_nothing(index_elements=["name"])
        )
        moved = session.exec(
            update(PeriodicRun)
            .where(col(PeriodicRun.name) == name, col(PeriodicRun.period) < period)
            .values(period=period, ran_at=now, ran_by=runner)
        )
        return bool(moved.rowcount)
