"""The hiring team's side: each opening's pipeline, a candidate's page, stage moves,
notes and the CV, for members whose role holds `Permission.HIRE` (checked first in every
function, whatever the screen showed).

A move to Rejected queues the kind note (rcxsite/careers/letters.py) two working days
ahead; a move away from Rejected before then cancels it. Every CV handed out is in the
audit log.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, col, select

from rcxsite.careers.applications import rejection_mail_ref
from rcxsite.careers.cv import KINDS
from rcxsite.careers.inputs import APPLICATION_UNKNOWN, NoteInput, StageInput
from rcxsite.careers.interview_records import end_interviews_to_come
from rcxsite.careers.letters import send_rejection
from rcxsite.careers.openings import opening_title
from rcxsite.careers.stages import HIRED, REJECTED, STAGES, stage_label
from rcxsite.content.careers import OPENINGS
from rcxsite.core import audit
from rcxsite.core.attribution import source_text
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.core.working_week import WORKING_DAY, due_at
from rcxsite.jobs import cancel as cancel_jobs
from rcxsite.jobs.queue import QUEUED
from rcxsite.models import Interview, InterviewSeat, Job, StaffMember, utcnow
from rcxsite.models.careers import ApplicationChange, JobApplication
from rcxsite.platform.db import session_scope
from rcxsite.platform.file_store import FileStore, KeptFile, get_file_store

LIST_LIMIT = 200
# The rejection note waits this long, so a wrong move can be undone before it is sent.
REJECTION_HELD = 2 * WORKING_DAY
NOT_SOURCED = "Not attributed"
ALREADY_THERE = "The candidate is already at that stage."


@dataclass(frozen=True, slots=True)
class OpeningPipeline:
    slug: str
    title: str
    counts: tuple[int, ...]  # per stage, in STAGES' order

    @property
    def total(self) -> int:
        return sum(self.counts)


@dataclass(frozen=True, slots=True)
class CandidateRow:
    id: int
    name: str
    location: str
    opening_title: str
    stage: str
    received: datetime
    source: str


@dataclass(frozen=True, slots=True)
class HistoryLine:
    when: datetime
    who: str
    text: str
    note: bool


@dataclass(frozen=True, slots=True)
class InterviewLine:
    id: int
    start: datetime
    end: datetime
    interviewers: tuple[str, ...]
    meeting_url: str
    active: bool


@dataclass(frozen=True, slots=True)
class CandidateDetail:
    id: int
    opening: str
    opening_title: str
    name: str
    email: str
    phone: str
    location: str
    link: str
    note: str
    stage: str
    received: datetime
    source: str
    landing_page: str
    cv_name: str
    cv_type: str
    cv_size: int
    # When the queued rejection note goes (None: none queued); moving the candidate to
    # another stage before then cancels it.
    rejection_due: datetime | None
    history: tuple[HistoryLine, ...]
    # Newest first, cancelled ones included.
    interviews: tuple[InterviewLine, ...] = ()

    @property
    def rejection_pending(self) -> bool:
        return self.rejection_due is not None


@dataclass(frozen=True, slots=True)
class CandidateCv:
    name: str
    file: KeptFile


def pipelines(actor: StaffActor) -> list[OpeningPipeline]:
    """Every listed opening (and any closed one that still has candidates) with its count
    per stage."""
    require(actor, Permission.HIRE)
    with session_scope() as session:
        rows = session.exec(
            select(JobApplication.opening, JobApplication.stage, func.count()).group_by(
                col(JobApplication.opening), col(JobApplication.stage)
            )
        ).all()
    counts: dict[str, dict[str, int]] = {opening.slug: {} for opening in OPENINGS}
    for opening, stage, count in rows:
        counts.setdefault(opening, {})[stage] = int(count)
    return [
        OpeningPipeline(
            slug=slug,
            title=opening_title(slug),
            counts=tuple(by_stage.get(stage, 0) for stage in STAGES),
        )
        for slug, by_stage in counts.items()
    ]


def candidates(actor: StaffActor, *, opening: str = "", stage: str = "") -> list[CandidateRow]:
    """The newest LIST_LIMIT candidates of one opening (or all) at one stage (or any)."""
    require(actor, Permission.HIRE)
    query = select(JobApplication)
    if opening:
        query = query.where(col(JobApplication.opening) == opening)
    if stage:
        query = query.where(col(JobApplication.stage) == stage)
    query = query.order_by(col(JobApplication.created_at).desc()).limit(LIST_LIMIT)
    with session_scope() as session:
        return [
            CandidateRow(
                id=row.id or 0,
                name=row.name,
                location=row.location,
                opening_title=opening_title(row.opening),
                stage=row.stage,
                received=row.created_at,
                source=source_text(row) or NOT_SOURCED,
            )
            for row in session.exec(query).all()
        ]


def application_row(
    session: Session, application_id: int, *, for_update: bool = False
) -> JobApplication:
    query = select(JobApplication).where(col(JobApplication.id) == application_id)
    if for_update:
        query = query.with_for_update()
    row = session.exec(query).first()
    if row is None:
        raise ServiceError(404, APPLICATION_UNKNOWN)
    return row


def _history(session: Session, application_id: int) -> tuple[HistoryLine, ...]:
    changes = session.exec(
        select(ApplicationChange)
        .where(col(ApplicationChange.application_id) == application_id)
        .order_by(col(ApplicationChange.created_at).desc(), col(ApplicationChange.id).desc())
    ).all()
    return tuple(
        HistoryLine(
            when=change.created_at,
            who=change.actor_name,
            text=(
                f"{stage_label(change.old_stage)} → {stage_label(change.new_stage)}"
                if change.kind == "stage"
                else change.text
            ),
            note=change.kind == "note",
        )
        for change in changes
    )


def _interviews(session: Session, application_id: int) -> tuple[InterviewLine, ...]:
    rows = session.exec(
        select(Interview, StaffMember.name)
        .join(InterviewSeat, col(InterviewSeat.interview_id) == col(Interview.id))
        .join(StaffMember, col(StaffMember.id) == col(InterviewSeat.staff_member_id))
        .where(col(Interview.application_id) == application_id)
        .order_by(col(Interview.starts_at).desc(), col(InterviewSeat.id))
    ).all()
    panels: dict[int, list[str]] = {}
    interviews: dict[int, Interview] = {}
    for interview, name in rows:
        interviews[interview.id or 0] = interview
        panels.setdefault(interview.id or 0, []).append(name)
    return tuple(
        InterviewLine(
            id=interview_id,
            start=interview.starts_at,
            end=interview.ends_at,
            interviewers=tuple(panels[interview_id]),
            meeting_url=interview.meeting_url,
            active=interview.active,
        )
        for interview_id, interview in interviews.items()
    )


def _rejection_due(session: Session, application_id: int) -> datetime | None:
    return session.exec(
        select(Job.due_at).where(
            col(Job.ref) == rejection_mail_ref(application_id), col(Job.state) == QUEUED
        )
    ).first()


def _detail(session: Session, row: JobApplication) -> CandidateDetail:
    assert row.id is not None
    return CandidateDetail(
        id=row.id,
        opening=row.opening,
        opening_title=opening_title(row.opening),
        name=row.name,
        email=row.email,
        phone=row.phone,
        location=row.location,
        link=row.link,
        note=row.note,
        stage=row.stage,
        received=row.created_at,
        source=source_text(row) or NOT_SOURCED,
        landing_page=row.landing_page,
        cv_name=row.cv_name,
        cv_type=row.cv_type,
        cv_size=row.cv_size,
        rejection_due=_rejection_due(session, row.id),
        history=_history(session, row.id),
        interviews=_interviews(session, row.id),
    )


def candidate(actor: StaffActor, application_id: int) -> CandidateDetail:
    require(actor, Permission.HIRE)
    with session_scope() as session:
        return _detail(session, application_row(session, application_id))


def move(change: StageInput, *, actor: StaffActor, now: datetime | None = None) -> CandidateDetail:
    """One save: the stage, its history line, the audit entry and, into or out of
    Rejected, the note queued or cancelled."""
    require(actor, Permission.HIRE)
    now = now or utcnow()
    with session_scope(for_update=True) as session:
        row = application_row(session, change.application_id, for_update=True)
        assert row.id is not None
        if row.stage == change.stage:
            raise ServiceError(409, ALREADY_THERE)
        old = row.stage
        row.stage = change.stage
        ref = rejection_mail_ref(row.id)
        if old == REJECTED:
            cancel_jobs(session, ref=ref)
        if change.stage in (REJECTED, HIRED):
            end_interviews_to_come(session, row, now=now)
        if change.stage == REJECTED:
            send_rejection(
                row,
                opening_title(row.opening),
                due_at=due_at(now, working=REJECTION_HELD),
                ref=ref,
                session=session,
            )
        return record_change(
            session,
            row,
            {"kind": "stage", "old_stage": old, "new_stage": change.stage},
            actor=actor,
            now=now,
            action="candidate_stage_changed",
            detail=f"{stage_label(old)} → {stage_label(change.stage)}",
        )


def add_note(note: NoteInput, *, actor: StaffActor, now: datetime | None = None) -> CandidateDetail:
    require(actor, Permission.HIRE)
    now = now or utcnow()
    with session_scope(for_update=True) as session:
        row = application_row(session, note.application_id, for_update=True)
        return record_change(
            session,
            row,
            {"kind": "note", "text": note.text},
            actor=actor,
            now=now,
            action="candidate_note_added",
        )


def record_change(
    session: Session,
    row: JobApplication,
    said: dict[str, str],
    *,
    actor: StaffActor | None,
    now: datetime,
    action: str,
    detail: str = "",
    actor_name: str = "",
) -> CandidateDetail:
    """A change made to `row`: its history line (what `said`, by whom and when), its audit
    entry, and the moment retention counts from; the candidate as now shown. `actor`
    None: not a member (`actor_name` says who, never a person's name: the audit log
    outlives the application)."""
    assert row.id is not None
    row.changed_at = now
    session.add(row)
    line = ApplicationChange(
        application_id=row.id,
        actor_id=(actor.member_id or None) if actor else None,
        actor_name=actor.name if actor else actor_name,
        kind="",
        created_at=now,
    )
    for name, value in said.items():
        setattr(line, name, value)
    session.add(line)
    audit.record(
        session,
        action=action,
        actor=actor,
        actor_name=actor_name,
        target=f"application {row.id}",
        detail=detail,
    )
    session.flush()
    return _detail(session, row)


def candidate_cv(
    actor: StaffActor, application_id: int, *, store: FileStore | None = None
) -> CandidateCv:
    """The CV of one application, for a member who may hire; the hand-over is audited
    whether or not the file store then answers."""
    require(actor, Permission.HIRE)
    with session_scope() as session:
        row = application_row(session, application_id)
        audit.record(
            session,
            action="candidate_cv_downloaded",
            actor=actor,
            target=f"application {application_id}",
            # The file's kind, not its name: the name often is the person's, and the log
            # outlives the application.
            detail=f"CV ({KINDS.get(row.cv_type, 'file')})",
        )
        key, name = row.cv_key, row.cv_name
    return CandidateCv(name=name, file=(store or get_file_store()).get(key))
