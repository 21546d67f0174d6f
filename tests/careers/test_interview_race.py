"""Interviews and calls at the same moment, on SQLite and PostgreSQL: three recruiters
booking one interviewer at one time (one interview is kept), and an interview and a
visitor's call taking one member's time together (one of them is kept). No exclusion
constraint spans the two tables: the members' row locks order the writes."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from sqlmodel import Session, col, select

from rcxsite import booking, careers
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import Booking, Interview
from rcxsite.platform.db import get_engine
from tests.support.booking import MONDAY, NOW, add_host, at
from tests.support.booking import book as book_call
from tests.support.careers import applicant
from tests.support.fixtures import Configure
from tests.support.postgres import sqlite_or_postgres
from tests.support.staff import add_member

# Starts far enough apart that no two rounds' interviews (75 minutes held) overlap.
WALL_TIMES = ("09:00", "11:00", "13:00", "15:00")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    configure(
        application_limit="10000 per hour",
        application_email_limit="10000 per day",
        booking_limit="10000 per hour",
        quote_limit="10000 per hour",
    )
    with sqlite_or_postgres(request.param, configure) as kind:
        yield kind


def _together(*actions: Callable[[], object]) -> tuple[int, list[BaseException]]:
    """The actions released at once: how many were refused as taken, and any other error."""
    start = threading.Barrier(len(actions))
    refused: list[int] = []
    errors: list[BaseException] = []

    def run(action: Callable[[], object]) -> None:
        start.wait()
        try:
            action()
        except ServiceError as refusal:
            refused.append(refusal.status)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(refused), errors


def _interview(application_id: int, member: int, wall: str) -> Callable[[], object]:
    recruiter = add_member(
        f"Recruiter {application_id}", f"r{application_id}@rcx.example", "hiring"
    )
    form = careers.InterviewInput.parse(
        {
            "application_id": application_id,
            "interviewers": [member],
            "start": booking.utc_text(at(MONDAY, wall)),
        }
    )
    return lambda: careers.book_interview(form, actor=recruiter, now=NOW)


def _active_interviews() -> list[Interview]:
    with Session(get_engine()) as session:
        return list(session.exec(select(Interview).where(col(Interview.active).is_(True))))


def test_three_bookings_of_one_interviewer_at_one_time_keep_one(database: str) -> None:
    ada = add_host("Ada Interviewer", role="hiring")
    for round_number, wall in enumerate(WALL_TIMES):
        applications = [
            applicant(f"Candidate {n}", f"c{round_number}-{n}@example.org") for n in range(3)
        ]
        refused, errors = _together(*(_interview(a, ada, wall) for a in applications))
        assert (refused, errors) == (2, [])

    assert sorted(i.starts_at for i in _active_interviews()) == [
        at(MONDAY, wall) for wall in WALL_TIMES
    ]


def test_an_interview_and_a_call_for_one_member_at_one_time_keep_one(database: str) -> None:
    alice = add_host("Alice Admin", role="admin")  # takes calls, and may interview
    for round_number, wall in enumerate(WALL_TIMES):
        application_id = applicant(f"Candidate {round_number}", f"c{round_number}@example.org")
        interview = _interview(application_id, alice, wall)
        refused, errors = _together(
            interview,
            lambda wall=wall, n=round_number: book_call(
                at(MONDAY, wall), email=f"visitor{n}@client.example", client_ip=f"10.7.0.{n}"
            ),
        )
        assert (refused, errors) == (1, [])

    with Session(get_engine()) as session:
        calls = list(session.exec(select(Booking).where(col(Booking.active).is_(True))))
    assert len(calls) + len(_active_interviews()) == len(WALL_TIMES)
