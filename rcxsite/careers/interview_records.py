"""Ending an interview: its time given back, its reminders taken back and everyone mailed
the cancellation; and erasing an application's interviews with it (a withdrawal, or
retention)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, delete, select

from rcxsite.careers.interview_mail import (
    TOKEN_PURPOSE,
    reminder_ref,
    send_interview_mails,
)
from rcxsite.careers.openings import opening_title
from rcxsite.jobs import cancel as cancel_jobs
from rcxsite.models import Interview, InterviewSeat, JobApplication
from rcxsite.models.booking import CANCELLED
from rcxsite.platform.at_rest import unseal


def end_interview(
    session: Session,
    interview: Interview,
    row: JobApplication,
    *,
    now: datetime,
    notify: bool = True,
) -> None:
    """Cancel `interview` (locked): its time given back, its reminders taken back, and
    the candidate and interviewers sent the cancellation."""
    assert interview.id is not None
    interview.status, interview.active = CANCELLED, False
    interview.sequence += 1
    interview.updated_at = now
    session.add(interview)
    cancel_jobs(session, ref=reminder_ref(interview.id))
    if notify:
        send_interview_mails(
            session,
            interview=interview,
            application=row,
            opening_title=opening_title(row.opening),
            token=unseal(TOKEN_PURPOSE, interview.token_sealed),
            change="cancelled",
        )


def erase_interviews(session: Session, application_id: int, *, now: datetime) -> None:
    """Before an application is erased (withdrawn, or past retention): its upcoming
    interviews cancelled, with the mails, and every interview of it deleted."""
    row = session.get(JobApplication, application_id)
    for interview in session.exec(
        select(Interview).where(col(Interview.application_id) == application_id).with_for_update()
    ).all():
        if interview.active and interview.starts_at > now and row is not None:
            end_interview(session, interview, row, now=now)
        elif interview.id is not None:
            cancel_jobs(session, ref=reminder_ref(interview.id))
    ids = select(Interview.id).where(col(Interview.application_id) == application_id)
    session.exec(delete(InterviewSeat).where(col(InterviewSeat.interview_id).in_(ids)))
    session.exec(delete(Interview).where(col(Interview.application_id) == application_id))
