"""An interview's mails, each with its calendar invitation (rcxsite/booking/invitation.py):
to the candidate (the meeting link and their manage link) and to each interviewer (the
candidate's page in the staff office), when it is booked, moved or cancelled; and the
candidate's reminders, as a booked call's (BOOKING_REMINDER_HOURS).

One UID per interview and a sequence that grows with each change, so calendars move or
remove their one entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from rcxsite import jobs
from rcxsite.booking.invitation import CallInvite, Method, invitation_ics
from rcxsite.booking.rules import rules
from rcxsite.booking.wording import spoken_time, zone_name
from rcxsite.careers.openings import opening_title
from rcxsite.core import paths
from rcxsite.mail.letters import Link, Paragraph, Table, send_letter
from rcxsite.models import Interview, InterviewSeat, JobApplication, StaffMember, utcnow
from rcxsite.platform.at_rest import unseal
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings

TOKEN_PURPOSE = "interview-token"
REMINDER = "interview_reminder"


def manage_url(token: str) -> str:
    """Where the candidate sees, moves or cancels their interview."""
    return get_settings().site_url.rstrip("/") + paths.interview_path(token)


def reminder_ref(interview_id: int) -> str:
    return f"interview:{interview_id}:reminder"


def mail_ref(interview_id: int) -> str:
    """What every mail of an interview is about (its reminders apart)."""
    return f"interview:{interview_id}"


def _team() -> tuple[str, str]:
    settings = get_settings()
    return f"{settings.company_name} hiring team", settings.careers_email


def interviewers_of(session: Session, interview_id: int) -> list[StaffMember]:
    return list(
        session.exec(
            select(StaffMember)
            .join(InterviewSeat, col(InterviewSeat.staff_member_id) == col(StaffMember.id))
            .where(col(InterviewSeat.interview_id) == interview_id)
            .order_by(col(InterviewSeat.id))
        ).all()
    )


def names(members: Sequence[StaffMember]) -> str:
    """ "Ada", "Ada and Bob", "Ada, Bob and Cy"."""
    listed = [member.name for member in members]
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


def _invite(
    interview: Interview,
    *,
    to: tuple[str, str],
    time_zone: str,
    summary: str,
    description: str,
    url: str,
) -> CallInvite:
    organizer = _team()
    return CallInvite(
        uid=interview.uid,
        sequence=interview.sequence,
        start=interview.starts_at,
        end=interview.ends_at,
        time_zone=zone_name(time_zone),
        summary=summary,
        description=description,
        location=interview.meeting_url,
        manage_url=interview.meeting_url or url,
        organizer_name=organizer[0],
        organizer_email=organizer[1],
        attendee_name=to[0],
        attendee_email=to[1],
        stamp=utcnow(),
    )


def _send(
    session: Session,
    invite: CallInvite,
    subject: str,
    paragraphs: list[Paragraph],
    *,
    method: Method,
    reply_to: str,
    ref: str,
) -> None:
    send_letter(
        invite.attendee_email,
        subject,
        *paragraphs,
        session=session,
        reply_to=reply_to,
        calendar=(method, invitation_ics(invite, method=method)),
        ref=ref,
    )


def _join_and_change(meeting_url: str, link: str) -> str:
    join = f"Join: {meeting_url}\n" if meeting_url else ""
    return f"{join}Move or cancel: {link}"


_HEADLINES = {
    "booked": "Your interview is booked",
    "moved": "Your interview has moved",
    "cancelled": "Your interview is cancelled",
}


def send_interview_mails(
    session: Session,
    *,
    interview: Interview,
    application: JobApplication,
    opening_title: str,
    token: str,
    change: str,
    interviewers: Sequence[StaffMember] | None = None,
    to_candidate: bool = True,
) -> None:
    """The candidate's (unless not `to_candidate`) and each interviewer's mail for
    `change` ("booked", "moved" or "cancelled"): METHOD:REQUEST, or CANCEL for a cancelled
    interview, which carries no manage link (nothing is left to change)."""
    assert interview.id is not None
    method: Method = "CANCEL" if change == "cancelled" else "REQUEST"
    panel = (
        list(interviewers) if interviewers is not None else interviewers_of(session, interview.id)
    )
    who = names(panel)
    company = get_settings().company_name
    link = manage_url(token)
    when = spoken_time(interview.starts_at, zone_name(interview.time_zone))
    candidate: list[Paragraph] = [f"Hello {application.name},"]
    if change == "cancelled":
        candidate.append(
            f"Your interview for {opening_title} on {when} is cancelled. If you did not "
            "cancel it yourself, the hiring team will be in touch; you can also reply to this "
            "mail."
        )
    else:
        candidate += [
            f"{_HEADLINES[change]}: {opening_title} at {company}, {when}, with {who}. It "
            f"lasts {int((interview.ends_at - interview.starts_at).total_seconds() // 60)} "
            "minutes.",
            Table(
                [
                    ("When", when),
                    ("With", who),
                    ("Where", interview.meeting_url or "We will send the link"),
                ]
            ),
            ("Join the video call: ", Link(interview.meeting_url, interview.meeting_url))
            if interview.meeting_url
            else "We will send the meeting link before the interview.",
            (
                "Another time suits you better, or you cannot come? ",
                Link("Move or cancel your interview", link, action=True),
                ".",
            ),
        ]
    team = _team()
    cancelled = change == "cancelled"
    if to_candidate:
        _send(
            session,
            _invite(
                interview,
                to=(application.name, application.email),
                time_zone=interview.time_zone,
                summary=f"Interview with {company}: {opening_title}",
                description=(
                    f"Your interview for {opening_title} with {who}.\n"
                    + ("" if cancelled else _join_and_change(interview.meeting_url, link))
                ),
                url="" if cancelled else link,
            ),
            f"{_HEADLINES[change]}: {opening_title} at {company}",
            candidate,
            method=method,
            reply_to=team[1],
            ref=mail_ref(interview.id),
        )
    staff_link = get_settings().site_url.rstrip("/") + paths.staff_candidate_path(
        application.id or 0
    )
    for member in panel:
        member_when = spoken_time(interview.starts_at, zone_name(member.time_zone))
        done = {"booked": "booked", "moved": "moved", "cancelled": "cancelled"}[change]
        _send(
            session,
            _invite(
                interview,
                to=(member.name, member.email),
                time_zone=member.time_zone,
                summary=f"Interview: {application.name}, {opening_title}",
                description=f"Candidate: {staff_link}\n"
                + (f"Join: {interview.meeting_url}" if interview.meeting_url else ""),
                url=staff_link,
            ),
            f"Interview {done}: {application.name}, {opening_title}",
            [
                f"Hello {member.name},",
                f"The interview with {application.name} for {opening_title} is {done}: "
                f"{member_when}, with {who}.",
                ("The candidate's page: ", Link("Open in the staff office", staff_link)),
            ],
            method=method,
            reply_to=team[1],
            ref=mail_ref(interview.id),
        )


def schedule_reminders(session: Session, interview: Interview, *, now: datetime) -> None:
    """A reminder job per BOOKING_REMINDER_HOURS before the interview; none already due.
    The payload holds no secret: the reminder unseals the link when it is due."""
    assert interview.id is not None
    for hours in rules().reminder_hours:
        due = interview.starts_at - timedelta(hours=hours)
        if due > now:
            jobs.add(
                session,
                kind=REMINDER,
                payload={"interview_id": interview.id, "sequence": interview.sequence},
                due_at=due,
                ref=reminder_ref(interview.id),
            )


def send_reminder(*, interview_id: int, sequence: int, now: datetime) -> bool:
    """The candidate's reminder of a due job; nothing for an interview cancelled, moved
    since (another sequence) or begun."""
    with session_scope() as session:
        interview = session.get(Interview, interview_id)
        if (
            interview is None
            or not interview.active
            or interview.sequence != sequence
            or interview.starts_at <= now
        ):
            return False
        application = session.get(JobApplication, interview.application_id)
        if application is None:
            return False
        title = opening_title(application.opening)
        link = manage_url(unseal(TOKEN_PURPOSE, interview.token_sealed))
        when = spoken_time(interview.starts_at, zone_name(interview.time_zone))
        send_letter(
            application.email,
            f"Reminder: your interview for {title}, {when}",
            f"Hello {application.name},",
            f"A reminder of your interview for {title} at {get_settings().company_name}: "
            f"{when}, with {names(interviewers_of(session, interview_id))}.",
            ("Join the video call: ", Link(interview.meeting_url, interview.meeting_url))
            if interview.meeting_url
            else "We will send the meeting link before the interview.",
            ("Cannot come? ", Link("Move or cancel your interview", link, action=True), "."),
            session=session,
            reply_to=_team()[1],
            ref=reminder_ref(interview_id),
        )
        return True


@jobs.handler(REMINDER)
def _remind(payload: dict[str, Any]) -> None:
    send_reminder(
        interview_id=int(payload["interview_id"]),
        sequence=int(payload["sequence"]),
        now=utcnow(),
    )
