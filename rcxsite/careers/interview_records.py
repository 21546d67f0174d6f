"""Ending an interview: its time given back, its reminders taken back and everyone mailed
the cancellation; and erasing an application's interviews with it (a withdrawal, or
retention)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session, col, delete, select

from rcxsite.careers.interview_mail import (
    TOKEN_PURPOSE,
    reminder_ref,
    send_interview_mails,
)
from rcxsite.careers.openings import opening_title
from rcxsite.jobs import cancel as cancel_jobs
from rcxsite.models import Interview, InterviewSeat, JobApplication, StaffMember
from rcxsite.models.booking import CANCELLED
from rcxsite.platform.at_rest import unseal


def end_interview(
    session: Session,
    interview: Interview,
    row: JobApplication,
    *,
    now: datetime,
    tell_candidate: bool = True,
) -> None:
    """Cancel `interview` (locked): its time given back, its reminders taken back, and
    the interviewers (and, unless not `tell_candidate`, the candidate) sent the
    cancellation."""
    assert interview.id is not None
    interview.status, interview.active = CANCELLED, False
    interview.sequence += 1
    interview.updated_at = now
    session.add(interview)
    cancel_jobs(session, ref=reminder_ref(interview.id))
    mail_change(session, interview, row, "cancelled", to_candidate=tell_candidate)


def mail_change(
    session: Session,
    interview: Interview,
    row: JobApplication,
    change: str,
    *,
    interviewers: Sequence[StaffMember] | None = None,
    to_candidate: bool = True,
) -> None:
    """`send_interview_mails` for a change to an interview already written (its link
    read back from its sealed copy)."""
    send_interview_mails(
        session,
        interview=interview,
        application=row,
        opening_title=opening_title(row.opening),
        token=unseal(TOKEN_PURPOSE, interview.token_sealed),
        change=change,
        interviewers=interviewers,
        to_candidate=to_candidate,
    )


def _to_come(session: Session, application_id: int, now: datetime) -> list[Interview]:
    return list(
        session.exec(
            select(Interview)
            .where(
                col(Interview.application_id) == application_id,
                col(Interview.active).is_(True),
                col(Interview.starts_at) > now,
            )
            .with_for_update()
        ).all()
    )


def end_interviews_to_come(session: Session, row: JobApplication, *, now: datetime) -> None:
    """A candidate rejected or hired: their interviews to come cancelled, everyone told."""
    for interview in _to_come(session, row.id or 0, now):
        end_interview(session, interview, row, now=now)


def erase_interviews(session: Session, application_id: int, *, now: datetime) -> None:
    """Before an application is erased (withdrawn, or past retention; its row locked):
    the interviewers told of its interviews to come (the candidate, who withdrew, is not
    mailed), every reminder taken back, and every interview of it deleted."""
    row = session.get(JobApplication, application_id)
    if row is not None:
        for interview in _to_come(session, application_id, now):
            end_interview(session, interview, row, now=now, tell_candidate=False)
    for interview_id in session.exec(
        select(Interview.id).where(col(Interview.application_id) == application_id)
    ).all():
        cancel_jobs(session, ref=reminder_ref(interview_id or 0))
    ids = select(Interview.id).where(col(Interview.application_id) == application_id)
    session.exec(delete(InterviewSeat).where(col(InterviewSeat.interview_id).in_(ids)))
    session.exec(delete(Interview).where(col(Interview.application_id) == application_id))
