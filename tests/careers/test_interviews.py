"""Interviews through the booking engine: the panel's common free times, booking one (the
invitations parsed back, the candidate moved on, the history), calls and interviews taking
each other's time, the candidate's link (move, cancel), a withdrawal cancelling it, and
who may interview."""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage

import pytest
from sqlmodel import select

from rcxsite import booking, careers
from rcxsite.booking.inputs import SlotQuery
from rcxsite.core import tokens
from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import Interview, InterviewSeat
from rcxsite.platform.db import session_scope
from tests.support.booking import LONDON, MONDAY, NOW, add_booking, add_host, at, wall_times
from tests.support.booking import book as book_call
from tests.support.booking_mail import invitation_in, plain_text
from tests.support.careers import applicant
from tests.support.site import jobs_of_kind, outbox_messages
from tests.support.staff import add_member, audit_entries

CANDIDATE = "grace@example.org"
LINK = re.compile(r"https?://\S+/careers/interview/([A-Za-z0-9_-]+)")


@pytest.fixture
def recruiter() -> StaffActor:
    return add_member("Rita Recruiter", "rita@rcx.example", "hiring")


def _panel_input(application_id: int, *members: int, start: object = None) -> dict[str, object]:
    fields: dict[str, object] = {"application_id": application_id, "interviewers": list(members)}
    if start is not None:
        fields["start"] = start
    return fields


def _times(recruiter: StaffActor, application_id: int, *members: int) -> list[str]:
    query = careers.InterviewersInput.parse(_panel_input(application_id, *members))
    starts = careers.interview_times(query, actor=recruiter, now=NOW)
    return wall_times(start for start in starts if start.date() == MONDAY)


def _book(recruiter: StaffActor, application_id: int, *members: int, wall: str) -> None:
    form = careers.InterviewInput.parse(
        _panel_input(application_id, *members, start=booking.utc_text(at(MONDAY, wall)))
    )
    careers.book_interview(form, actor=recruiter, now=NOW)


def _interview_mails() -> list[EmailMessage]:
    """The interviews' mails (the applicant's confirmation left out), oldest first."""
    return [m for m in outbox_messages() if "nterview" in str(m["Subject"])]


def _mails_to(address_part: str) -> list[EmailMessage]:
    return [m for m in _interview_mails() if address_part in str(m["To"])]


def _candidate_token() -> str:
    mail = _mails_to(CANDIDATE)[0]
    found = LINK.search(plain_text(mail))
    assert found is not None
    return found.group(1)


def test_the_times_offered_are_those_every_interviewer_is_free(recruiter: StaffActor) -> None:
    application_id = applicant()
    ada = add_host("Ada Interviewer", role="hiring")
    bob = add_host("Bob Afternoons", role="hiring", hours=[(0, "13:00", "17:00")])

    assert _times(recruiter, application_id, ada) == [
        "09:00", "10:00", "11:00", "12:00", "13:00", "14:00", "15:00", "16:00"
    ]  # fmt: skip
    assert _times(recruiter, application_id, ada, bob) == ["13:00", "14:00", "15:00", "16:00"]


def test_a_booked_interview_mails_invitations_and_moves_the_candidate_on(
    recruiter: StaffActor,
) -> None:
    application_id = applicant()
    ada = add_host("Ada Interviewer", role="hiring")
    bob = add_host("Bob Panel", role="hiring")
    start = at(MONDAY, "10:00")

    _book(recruiter, application_id, ada, bob, wall="10:00")

    detail = careers.candidate(recruiter, application_id)
    assert detail.stage == "interview"
    [line] = detail.interviews
    assert (line.start, line.end, line.interviewers, line.active) == (
        start,
        start + timedelta(minutes=60),
        ("Ada Interviewer", "Bob Panel"),
        True,
    )
    assert [h.text for h in detail.history][:2] == [
        "Interview booked: Monday 1 March 2027 at 10:00 (Europe/London) with Ada Interviewer "
        "and Bob Panel",
        "Applied → Interview",
    ]
    mails = _interview_mails()
    [to_candidate] = [m for m in mails if CANDIDATE in str(m["To"])]
    invitation = invitation_in(to_candidate)
    assert invitation.method == "REQUEST"
    [event] = invitation.calendar.events
    assert event.start == start and event.end == start + timedelta(minutes=60)
    assert str(event["LOCATION"]) == line.meeting_url.strip() != ""
    assert str(event["ATTENDEE"]) == f"mailto:{CANDIDATE}"
    token = LINK.search(str(event["DESCRIPTION"]))
    assert token is not None and token.group(1) == _candidate_token()
    assert "Ada Interviewer and Bob Panel" in plain_text(to_candidate)
    panel_mails = [m for m in mails if "rcx.example" in str(m["To"])]
    assert len(panel_mails) == 2
    for mail in panel_mails:
        [copy] = invitation_in(mail).calendar.events
        assert copy.uid == event.uid and copy.start == start
        assert f"/staff/candidates/{application_id}" in str(copy["DESCRIPTION"])


def test_an_interview_takes_the_time_from_calls_and_a_call_from_interviews(
    recruiter: StaffActor,
) -> None:
    application_id = applicant()
    alice = add_host("Alice Admin", role="admin")
    add_booking(alice, at(MONDAY, "13:00"))  # 13:00-13:45 with its buffer

    assert "13:00" not in _times(recruiter, application_id, alice)
    assert "12:00" not in _times(recruiter, application_id, alice)  # its buffer would overlap
    _book(recruiter, application_id, alice, wall="10:00")

    slots = booking.free_slots(SlotQuery(time_zone=LONDON, first_day=MONDAY, days=1), now=NOW)
    calls = wall_times(slot.start for slot in slots.slots)
    # The interview holds 10:00-11:15; a call at 09:30 would run into it with its buffer.
    assert "09:00" in calls and "11:30" in calls
    assert not {"09:30", "10:00", "10:30", "11:00"} & set(calls)
    with pytest.raises(ServiceError) as taken:
        _book(recruiter, application_id, alice, wall="10:00")
    assert taken.value.message == careers.interviews.TAKEN
    with pytest.raises(ServiceError) as call_taken:  # Alice is the only host
        book_call(at(MONDAY, "10:30"), email="visitor@client.example")
    assert call_taken.value.message == booking.TAKEN


def test_the_candidate_moves_then_cancels_from_their_link(recruiter: StaffActor) -> None:
    application_id = applicant(email=CANDIDATE)
    ada = add_host("Ada Interviewer", role="hiring")
    _book(recruiter, application_id, ada, wall="10:00")
    digest = tokens.token_digest(_candidate_token())

    shown = careers.candidate_interview(link_digest=digest, now=NOW)
    assert (shown.when, shown.interviewers, shown.changeable) == (
        "Monday 1 March 2027 at 10:00 (Europe/London)",
        "Ada Interviewer",
        True,
    )
    query = SlotQuery(time_zone=LONDON, first_day=MONDAY, days=1)
    times = careers.times_to_move_to(query, link_digest=digest, now=NOW)
    assert times.call_minutes == 60
    assert wall_times(slot.start for slot in times.slots) == [
        "09:00", "11:00", "12:00", "13:00", "14:00", "15:00", "16:00"
    ]  # fmt: skip

    move = careers.InterviewMoveInput.parse(
        {"start": booking.utc_text(at(MONDAY, "14:00")), "time_zone": "America/New_York"}
    )
    moved = careers.move_interview(move, link_digest=digest, client_ip="10.9.9.9", now=NOW)
    assert moved.when == "Monday 1 March 2027 at 09:00 (America/New_York)"
    [event] = invitation_in(_mails_to(CANDIDATE)[-1]).calendar.events
    assert (event.start, event.sequence) == (at(MONDAY, "14:00"), 1)
    assert "10:00" in _times(recruiter, application_id, ada)  # given back

    cancelled = careers.cancel_by_candidate(link_digest=digest, client_ip="10.9.9.9", now=NOW)
    assert (cancelled.changeable, cancelled.notice) == (False, careers.interviews.CANCELLED_NOTICE)
    for mail in (_mails_to(CANDIDATE)[-1], _mails_to("ada.interviewer")[-1]):
        assert invitation_in(mail).method == "CANCEL"
    assert "14:00" in _times(recruiter, application_id, ada)
    with pytest.raises(ServiceError) as refused:
        careers.move_interview(move, link_digest=digest, client_ip="10.9.9.9", now=NOW)
    assert refused.value.message == careers.interviews.CANCELLED_NOTICE
    history = careers.candidate(recruiter, application_id).history
    assert history[0].text.startswith("Interview cancelled by the candidate")
    assert history[0].who == "The candidate (interview link)"
    assert ("interview_changed_by_candidate", "The candidate (interview link)") in {
        (entry.action, entry.actor_name) for entry in audit_entries()
    }
    with pytest.raises(ServiceError):
        careers.candidate_interview(link_digest=tokens.token_digest("x" * 43), now=NOW)


def test_withdrawing_cancels_the_interview_and_erases_it(recruiter: StaffActor) -> None:
    application_id = applicant(email=CANDIDATE)
    ada = add_host("Ada Interviewer", role="hiring")
    [confirmation] = outbox_messages()
    withdraw = re.search(r"/careers/withdraw/([A-Za-z0-9_-]+)", plain_text(confirmation))
    assert withdraw is not None
    _book(recruiter, application_id, ada, wall="10:00")

    careers.withdraw(link_digest=tokens.token_digest(withdraw.group(1)))

    assert invitation_in(_mails_to("ada.interviewer")[-1]).method == "CANCEL"
    # The candidate, who withdrew, is not told their interview is cancelled.
    assert [invitation_in(m).method for m in _mails_to(CANDIDATE)] == ["REQUEST"]
    with session_scope() as session:
        assert session.exec(select(Interview)).all() == []
        assert session.exec(select(InterviewSeat)).all() == []


def test_only_the_hiring_team_books_and_only_its_members_interview(recruiter: StaffActor) -> None:
    application_id = applicant()
    sam = add_host("Sam Sales", role="sales")
    ada = add_host("Ada Interviewer", role="hiring")
    seller = add_member("Sid Seller", "sid@rcx.example", "sales")

    assert [m.name for m in careers.interviewers(recruiter)] == [
        "Ada Interviewer",
        "Rita Recruiter",
    ]
    with pytest.raises(ServiceError) as not_one:
        _times(recruiter, application_id, ada, sam)
    assert not_one.value.fields == {"interviewers": careers.interviews.NOT_AN_INTERVIEWER}
    with pytest.raises(ServiceError) as refused:
        _book(seller, application_id, ada, wall="10:00")
    assert refused.value.status == 403
    form, errors = careers.InterviewInput.read(_panel_input(application_id, start="soon"))
    assert form is None and errors == {
        "interviewers": "Please choose who interviews",
        "start": "Please choose a time for the interview",
    }


def test_a_rejected_candidate_s_interviews_end_and_booking_again_takes_the_note_back(
    recruiter: StaffActor,
) -> None:
    application_id = applicant(email=CANDIDATE)
    ada = add_host("Ada Interviewer", role="hiring")
    _book(recruiter, application_id, ada, wall="10:00")
    move = careers.StageInput.parse({"application_id": application_id, "stage": "rejected"})

    careers.move(move, actor=recruiter, now=NOW)

    # Booked and cancelled, to the candidate and Ada (the held note keeps the queue busy).
    about = [job.ref for job in jobs_of_kind("mail") if job.ref.startswith("interview:")]
    assert len(about) == 4
    assert careers.candidate(recruiter, application_id).interviews[0].active is False
    assert "10:00" in _times(recruiter, application_id, ada)
    assert [job.state for job in jobs_of_kind("mail") if "rejection" in job.ref] == ["queued"]
    _book(recruiter, application_id, ada, wall="11:00")
    detail = careers.candidate(recruiter, application_id)
    assert (detail.stage, detail.rejection_pending) == ("interview", False)


def test_an_interview_that_took_place_cannot_be_cancelled(recruiter: StaffActor) -> None:
    application_id = applicant()
    ada = add_host("Ada Interviewer", role="hiring")
    _book(recruiter, application_id, ada, wall="10:00")
    [line] = careers.candidate(recruiter, application_id).interviews
    cancel = careers.InterviewCancelInput.parse(
        {"application_id": application_id, "interview_id": line.id}
    )

    with pytest.raises(ServiceError) as refused:
        careers.cancel_interview(cancel, actor=recruiter, now=at(MONDAY, "10:30"))
    assert refused.value.message == careers.interviews.ALREADY_HELD
    careers.cancel_interview(cancel, actor=recruiter, now=NOW)
    assert careers.candidate(recruiter, application_id).interviews[0].active is False
