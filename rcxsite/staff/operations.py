"""The staff office's view of mail and jobs (admins): health, and "Retry" for a failed
job. The work itself is rcxsite.jobs; here is who may look and act, and the audit row."""

from __future__ import annotations

from rcxsite.core import audit
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.jobs import status
from rcxsite.platform.db import session_scope


def jobs_health(*, actor: StaffActor | None) -> status.Health:
    require(actor, Permission.OPERATE_JOBS)
    return status.health()


def retry_job(*, actor: StaffActor | None, job_id: int) -> str:
    """Queue a failed job again; the notice to show."""
    require(actor, Permission.OPERATE_JOBS)
    status.retry(job_id)
    with session_scope() as session:
        audit.record(session, action="job_retried", actor=actor, target=f"job {job_id}")
    return f"Job #{job_id} is queued again."
