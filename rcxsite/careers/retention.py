"""Applications are kept 12 months after their last change, then erased with their CV and
history (a daily job), unless the person was hired: their file moves to employment
records, which this site does not keep."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlmodel import col, delete, select

from rcxsite import jobs
from rcxsite.careers.applications import rejection_mail_ref
from rcxsite.careers.interview_records import erase_interviews
from rcxsite.careers.stages import HIRED
from rcxsite.models import utcnow
from rcxsite.models.careers import ApplicationChange, JobApplication
from rcxsite.platform.db import session_scope
from rcxsite.platform.file_store import FileStore, get_file_store

logger = logging.getLogger(__name__)

KEPT_DAYS = 365
# Erased a batch at a time, so one run never holds a long transaction.
_BATCH = 200


@jobs.periodic("erase_old_applications", every_seconds=24 * 3600)
def erase_old_applications(
    *, now: datetime | None = None, store: Callable[[], FileStore] = get_file_store
) -> int:
    """Erase every application unchanged for KEPT_DAYS that did not end in a hire; how
    many went. The rows go first, then their CVs: a CV whose erasure fails is logged, and
    no row refers to it any more."""
    cutoff = (now or utcnow()) - timedelta(days=KEPT_DAYS)
    erased = 0
    while True:
        with session_scope() as session:
            rows = session.exec(
                select(JobApplication.id, JobApplication.cv_key)
                .where(col(JobApplication.changed_at) < cutoff, col(JobApplication.stage) != HIRED)
                .limit(_BATCH)
            ).all()
            if not rows:
                break
            ids = [row_id for row_id, _ in rows]
            for row_id in ids:
                jobs.cancel(session, ref=rejection_mail_ref(row_id or 0))
                erase_interviews(session, row_id or 0, now=utcnow())
            session.exec(
                delete(ApplicationChange).where(col(ApplicationChange.application_id).in_(ids))
            )
            session.exec(delete(JobApplication).where(col(JobApplication.id).in_(ids)))
        for _, key in rows:
            try:
                store().delete(key)
            except Exception:
                logger.exception("Could not erase the CV of an erased application")
        erased += len(rows)
    if erased:
        logger.info("Erased %d job application(s) unchanged for %d days", erased, KEPT_DAYS)
    return erased
