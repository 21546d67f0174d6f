"""The daily clean-up of finished jobs."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, delete
from sqlmodel import col

from rcxsite.core.pruning import DAY, KEEP_DAYS, prune
from rcxsite.jobs.kinds import periodic
from rcxsite.jobs.queue import CANCELLED, DONE, FAILED
from rcxsite.models import Job, utcnow


@periodic("prune_jobs", every_seconds=DAY)
def prune_jobs(*, now: datetime | None = None) -> dict[str, int]:
    """Delete jobs that finished over KEEP_DAYS ago, failed ones too: a month is long
    enough to retry, and their sealed mail holds names and addresses that must not outlive
    that."""
    before = (now or utcnow()) - timedelta(days=KEEP_DAYS)
    finished = col(Job.state).in_((DONE, CANCELLED, FAILED))
    return prune("jobs", {"job": delete(Job).where(and_(finished, col(Job.finished_at) < before))})
