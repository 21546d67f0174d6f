"""Interviews, through the booking engine: the hiring team picks the interviewers, is offered
their common free times (rcxsite/booking/slots.py: hours, time off, their own calendars,
booked calls and other interviews), and books one; the candidate moves or cancels it from
the link in their invitation.

An interview takes each interviewer's time as a booked call takes its host's, and either
write first locks the members' rows (`FOR NO KEY UPDATE` on PostgreSQL, as a call's
placement does; SQLite's write lock), then checks and writes: no interviewer is ever
booked twice at once, by a call or another interview.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from rcxsite.booking import meetings
from rcxsite.booking.availability import MemberAvailability, load_members
from rcxsite.booking.inputs import SlotQuery
from rcxsite.booking.rules import COMPANY_TIME_ZONE, Rules, rules
from rcxsite.booking.slots import Slot, SlotList, all_free_at, day_start, free_together
from rcxsite.booking.wording import spoken_time, zone_name
from rcxsite.careers.applications import rejection_mail_ref
from rcxsite.careers.interview_inputs import (
    InterviewCancelInput,
    InterviewersInput,
    InterviewInput,
    InterviewMoveInput,
    unknown_interview,
)
from rcxsite.careers.interview_mail import (
    TOKEN_PURPOSE,
    interviewers_of,
    names,
    reminder_ref,
    schedule_reminders,
    send_interview_mails,
)
from rcxsite.careers.interview_records import end_interview, mail_change
from rcxsite.careers.openings import opening_title
from rcxsite.careers.pipeline import (
    CandidateDetail,
    application_row,
    record_change,
)
from rcxsite.careers.stages import HIRED, REJECTED, STAGES, stage_label
from rcxsite.core import tokens
from rcxsite.core.permissions import GRANTS, Permission, StaffActor, require
from rcxsite.core.ratelimit import Limit, Reservation, client_key, reserve
from rcxsite.core.service_errors import ServiceError
from rcxsite.jobs import cancel as cancel_jobs
from rcxsite.models import Interview, InterviewSeat, JobApplication, StaffMember, utcnow
from rcxsite.models.booking import BOOKED, MOVED, VIDEO
from rcxsite.platform.at_rest import seal
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings

TAKEN = "That time has just been taken. Please choose another."
NOT_AN_INTERVIEWER = "Please choose interviewers from the hiring team"
LINK_INVALID = "This interview link is not valid. Please use the link in your latest mail."
CANCELLED_NOTICE = "This interview was cancelled, so it can no longer be changed."
PAST_NOTICE = "This interview has already taken place, so it can no longer be changed."
MOVES_USED_UP = (
    "This interview has been moved as often as it can be. To move it again, please reply "
    "to your invitation. You can still cancel it."
)
ALREADY_CANCELLED = "This interview is already cancelled."
ALREADY_HELD = "This interview has already taken place."
HIRED_ALREADY = "The candidate is hired: there is no interview to book."
PANEL_CHANGED = (
    "One of your interviewers can no longer take this interview, so it cannot be moved "
    "here. Please reply to your invitation and we will find another time. You can still "
    "cancel it."
)
CANDIDATE = "The candidate (interview link)"
MOVED_MESSAGE = "Your interview is moved. We have mailed you the new invitation."
CANCELLED_MESSAGE = "Your interview is cancelled. We have told the hiring team."
# The stages from which booking an interview moves the candidate on to Interview.
_BEFORE_INTERVIEW = STAGES[: STAGES.index("interview")]
# The candidate's link's limits: one interview's moves and cancels, a client's changes
# (the booked calls' own budgets and scopes).
CHANGE_SCOPE = "interview-change"
CHANGE_CLIENT_SCOPE = "booking-change-client"


@dataclass(frozen=True, slots=True)
class Interviewer:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class CandidateInterview:
    """What the candidate's link shows."""

    opening_title: str
    start: datetime
    end: datetime
    time_zone: str
    interviewers: str
    meeting_url: str
    status: str
    changeable: bool
    notice: str

    @property
    def when(self) -> str:
        return spoken_time(self.start, self.time_zone)


def interview_rules() -> Rules:
    """The booked calls' rules, with an interview's length."""
    return replace(rules(), call=timedelta(minutes=get_settings().interview_minutes))


def _hiring_members(session: Session, ids: tuple[int, ...] | None = None) -> list[StaffMember]:
    query = select(StaffMember).where(
        col(StaffMember.role).in_(sorted(GRANTS[Permission.HIRE])),
        col(StaffMember.disabled_at).is_(None),
        col(StaffMember.password_hash) != "",
    )
    if ids is not None:
        query = query.where(col(StaffMember.id).in_(ids))
    return list(session.exec(query.order_by(col(StaffMember.name))).all())


def interviewers(actor: StaffActor) -> list[Interviewer]:
    """Who may interview: the enrolled members whose role may hire."""
    require(actor, Permission.HIRE)
    with session_scope() as session:
        return [Interviewer(id=m.id or 0, name=m.name) for m in _hiring_members(session)]


def _panel(session: Session, chosen: tuple[int, ...]) -> list[MemberAvailability]:
    """The chosen interviewers' availability, in the order chosen; a member who may not
    interview (another role, disabled, unknown) is refused, not skipped."""
    allowed = {m.id for m in _hiring_members(session, chosen)}
    if set(chosen) - allowed:
        raise ServiceError(422, NOT_AN_INTERVIEWER, fields={"interviewers": NOT_AN_INTERVIEWER})
    by_id = {m.member_id: m for m in load_members(session, chosen)}
    return [by_id[member_id] for member_id in chosen]


def _search(
    session: Session,
    panel: list[MemberAvailability],
    *,
    now: datetime,
    excluding: int | None = None,
) -> list[datetime]:
    zone = ZoneInfo(COMPANY_TIME_ZONE)
    first = now.astimezone(zone).date()
    days = get_settings().interview_search_days
    return free_together(
        session,
        panel,
        since=day_start(first, zone),
        until=day_start(first + timedelta(days=days + 1), zone),
        now=now,
        rules=interview_rules(),
        excluding_interview=excluding,
    )


def interview_times(
    query: InterviewersInput, *, actor: StaffActor, now: datetime | None = None
) -> list[datetime]:
    """The starts over the next INTERVIEW_SEARCH_DAYS at which every chosen interviewer
    is free for an interview, with the booked calls' notice and buffer."""
    require(actor, Permission.HIRE)
    with session_scope() as session:
        application_row(session, query.application_id)
        return _search(session, _panel(session, query.interviewers), now=now or utcnow())


def _lock_members(session: Session, member_ids: Sequence[int]) -> None:
    """The members' rows, locked in id order (so two writes never wait on each other):
    what a call's placement locks too (rcxsite/booking/placement.py)."""
    if session.get_bind().dialect.name == "postgresql":
        session.exec(
            select(StaffMember.id)
            .where(col(StaffMember.id).in_(sorted(member_ids)))
            .order_by(col(StaffMember.id))
            .with_for_update(key_share=True)
        ).all()


def _new_uid() -> str:
    host = urlsplit(get_settings().site_url).hostname or "localhost"
    return f"interview-{secrets.token_hex(12)}@{host}"


def book_interview(
    booking: InterviewInput, *, actor: StaffActor, now: datetime | None = None
) -> CandidateDetail:
    """The interview at `booking.start` with the chosen interviewers, if every one of them
    is free then; the candidate moved on to Interview from an earlier stage, its history
    line, the invitations and the reminders, in one transaction."""
    require(actor, Permission.HIRE)
    now = now or utcnow()
    company = interview_rules()
    token, digest = tokens.new_token()
    with session_scope(for_update=True) as session:
        row = application_row(session, booking.application_id, for_update=True)
        if row.stage == HIRED:
            raise ServiceError(409, HIRED_ALREADY)
        panel = _panel(session, booking.interviewers)
        _lock_members(session, booking.interviewers)
        if not all_free_at(session, panel, start=booking.start, now=now, rules=company):
            raise ServiceError(409, TAKEN, fields={"start": TAKEN})
        members = _members(session, booking.interviewers)
        lead = members[0]
        interview = Interview(
            application_id=row.id or 0,
            starts_at=booking.start,
            ends_at=booking.start + company.call,
            blocked_until=booking.start + company.blocked,
            status=BOOKED,
            time_zone=COMPANY_TIME_ZONE,
            token_hash=digest or "",
            token_sealed=seal(TOKEN_PURPOSE, token),
            uid=_new_uid(),
            meeting_url=meetings.meeting_url_for(VIDEO, lead),
            booked_by=actor.name,
            created_at=now,
            updated_at=now,
        )
        session.add(interview)
        session.flush()
        assert interview.id is not None
        session.add_all(
            InterviewSeat(interview_id=interview.id, staff_member_id=member.id or 0)
            for member in members
        )
        session.flush()
        title = opening_title(row.opening)
        send_interview_mails(
            session,
            interview=interview,
            application=row,
            opening_title=title,
            token=token,
            change="booked",
            interviewers=members,
        )
        schedule_reminders(session, interview, now=now)
        said = f"Interview booked: {_spoken(booking.start)} with {names(members)}"
        if row.stage in (*_BEFORE_INTERVIEW, REJECTED):
            # Back from Rejected: its held note is not sent (as a move back does).
            cancel_jobs(session, ref=rejection_mail_ref(row.id or 0))
            old, row.stage = row.stage, "interview"
            record_change(
                session,
                row,
                {"kind": "stage", "old_stage": old, "new_stage": "interview"},
                actor=actor,
                now=now,
                action="candidate_stage_changed",
                detail=f"{stage_label(old)} → {stage_label('interview')}",
            )
        return _team_line(session, row, said, actor=actor, now=now, action="interview_booked")


def _team_line(
    session: Session,
    row: JobApplication,
    said: str,
    *,
    actor: StaffActor,
    now: datetime,
    action: str,
) -> CandidateDetail:
    """The history line and audit entry of a member's change to an interview."""
    return record_change(
        session,
        row,
        {"kind": "interview", "text": said},
        actor=actor,
        now=now,
        action=action,
        detail=said,
    )


def _spoken(start: datetime) -> str:
    """A time in the history, which every member reads: on the company's clock."""
    return spoken_time(start, COMPANY_TIME_ZONE)


def _members(session: Session, ids: tuple[int, ...]) -> list[StaffMember]:
    by_id = {m.id: m for m in session.exec(select(StaffMember).where(col(StaffMember.id).in_(ids)))}
    return [by_id[member_id] for member_id in ids]


def cancel_interview(
    cancel: InterviewCancelInput, *, actor: StaffActor, now: datetime | None = None
) -> CandidateDetail:
    """The hiring team's cancel: everyone is mailed the cancellation."""
    require(actor, Permission.HIRE)
    now = now or utcnow()
    with session_scope(for_update=True) as session:
        row = application_row(session, cancel.application_id, for_update=True)
        interview = session.exec(
            select(Interview)
            .where(
                col(Interview.id) == cancel.interview_id,
                col(Interview.application_id) == cancel.application_id,
            )
            .with_for_update()
        ).first()
        if interview is None:
            raise unknown_interview()
        if not interview.active:
            raise ServiceError(409, ALREADY_CANCELLED)
        if interview.starts_at <= now:
            raise ServiceError(409, ALREADY_HELD)
        end_interview(session, interview, row, now=now)
        said = f"Interview cancelled: {_spoken(interview.starts_at)}"
        return _team_line(session, row, said, actor=actor, now=now, action="interview_cancelled")


# The candidate's link.


def _by_link(session: Session, digest: str | None, *, for_update: bool = False) -> Interview:
    if digest is None:
        raise ServiceError(404, LINK_INVALID)
    query = select(Interview).where(col(Interview.token_hash) == digest)
    if for_update:
        query = query.with_for_update()
    interview = session.exec(query).first()
    if interview is None:
        raise ServiceError(404, LINK_INVALID)
    return interview


def _refusal(interview: Interview, now: datetime) -> str:
    if not interview.active:
        return CANCELLED_NOTICE
    if interview.starts_at <= now:
        return PAST_NOTICE
    return ""


def _shown(session: Session, interview: Interview, now: datetime) -> CandidateInterview:
    row = session.get(JobApplication, interview.application_id)
    notice = _refusal(interview, now)
    return CandidateInterview(
        opening_title=opening_title(row.opening) if row is not None else "",
        start=interview.starts_at,
        end=interview.ends_at,
        time_zone=zone_name(interview.time_zone),
        interviewers=names(interviewers_of(session, interview.id or 0)),
        meeting_url=interview.meeting_url if interview.active else "",
        status=interview.status,
        changeable=not notice,
        notice=notice,
    )


def candidate_interview(
    *, link_digest: str | None, now: datetime | None = None
) -> CandidateInterview:
    with session_scope() as session:
        return _shown(session, _by_link(session, link_digest), now or utcnow())


def times_to_move_to(
    query: SlotQuery, *, link_digest: str | None, now: datetime | None = None
) -> SlotList:
    """The interviewers' common free times on the candidate's days `query` names, to move
    their interview to (its own time not counted as taken, nor offered): what the
    booking pages' time picker shows."""
    now = now or utcnow()
    zone = ZoneInfo(query.time_zone)
    first_day = query.first_day or now.astimezone(zone).date()
    company = interview_rules()
    starts: list[datetime] = []
    with session_scope() as session:
        interview = _by_link(session, link_digest)
        if not _refusal(interview, now):
            ids = [m.id or 0 for m in interviewers_of(session, interview.id or 0)]
            by_id = {m.member_id: m for m in load_members(session, ids)}
            if len(by_id) == len(ids):
                starts = free_together(
                    session,
                    [by_id[member_id] for member_id in ids],
                    since=day_start(first_day, zone),
                    until=day_start(first_day + timedelta(days=query.days), zone),
                    now=now,
                    rules=company,
                    excluding_interview=interview.id,
                )
                starts = [start for start in starts if start != interview.starts_at]
    return SlotList(
        time_zone=query.time_zone,
        call_minutes=int(company.call.total_seconds() // 60),
        first_day=first_day,
        days=query.days,
        slots=tuple(Slot(start=start, end=start + company.call) for start in starts),
        taking_calls=True,
    )


def _changes(interview: Interview, client_ip: str) -> Reservation:
    settings = get_settings()
    return reserve(
        Limit(settings.booking_change_limit, CHANGE_SCOPE, interview.uid),
        Limit(settings.booking_change_client_limit, CHANGE_CLIENT_SCOPE, client_key(client_ip)),
    )


def _locked_by_link(session: Session, digest: str | None) -> tuple[Interview, JobApplication]:
    """The link's interview and its application, locked in the order every other write
    takes them (the application first), so two changes never wait on each other."""
    application_id = _by_link(session, digest).application_id
    row = application_row(session, application_id, for_update=True)
    return _by_link(session, digest, for_update=True), row


def move_interview(
    move: InterviewMoveInput,
    *,
    link_digest: str | None,
    client_ip: str,
    now: datetime | None = None,
) -> CandidateInterview:
    """The candidate's move to another of the interviewers' common free times."""
    now = now or utcnow()
    company = interview_rules()
    with session_scope(for_update=True) as session:
        interview, row = _locked_by_link(session, link_digest)
        if notice := _refusal(interview, now):
            raise ServiceError(409, notice)
        if interview.sequence >= get_settings().booking_changes_max:
            raise ServiceError(429, MOVES_USED_UP)
        # Counted before the search, and given back when the time was taken: a refused
        # try costs the interviewers' locks too.
        counted = _changes(interview, client_ip)
        members = interviewers_of(session, interview.id or 0)
        ids = [m.id or 0 for m in members]
        panel = {m.member_id: m for m in load_members(session, ids)}
        if len(panel) != len(ids):
            counted.give_back()
            raise ServiceError(409, PANEL_CHANGED)
        _lock_members(session, ids)
        if not all_free_at(
            session,
            [panel[member_id] for member_id in ids],
            start=move.start,
            now=now,
            rules=company,
            excluding_interview=interview.id,
        ):
            counted.give_back()
            raise ServiceError(409, TAKEN, fields={"start": TAKEN})
        assert interview.id is not None
        old = interview.starts_at
        interview.starts_at, interview.ends_at = move.start, move.start + company.call
        interview.blocked_until = move.start + company.blocked
        interview.status, interview.sequence = MOVED, interview.sequence + 1
        interview.time_zone, interview.updated_at = move.time_zone, now
        session.add(interview)
        session.flush()
        cancel_jobs(session, ref=reminder_ref(interview.id))
        mail_change(session, interview, row, "moved", interviewers=members)
        schedule_reminders(session, interview, now=now)
        _candidate_line(
            session,
            row,
            f"Interview moved by the candidate: {_spoken(old)} → {_spoken(move.start)}",
            now=now,
        )
        return _shown(session, interview, now)


def cancel_by_candidate(
    *, link_digest: str | None, client_ip: str, now: datetime | None = None
) -> CandidateInterview:
    now = now or utcnow()
    with session_scope(for_update=True) as session:
        interview, row = _locked_by_link(session, link_digest)
        if notice := _refusal(interview, now):
            raise ServiceError(409, notice)
        _changes(interview, client_ip)
        end_interview(session, interview, row, now=now)
        _candidate_line(
            session,
            row,
            f"Interview cancelled by the candidate: {_spoken(interview.starts_at)}",
            now=now,
        )
        return _shown(session, interview, now)


def _candidate_line(session: Session, row: JobApplication, text: str, *, now: datetime) -> None:
    record_change(
        session,
        row,
        {"kind": "interview", "text": text},
        actor=None,
        actor_name=CANDIDATE,
        now=now,
        action="interview_changed_by_candidate",
        detail=text,
    )
