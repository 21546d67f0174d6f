"""Things two people do at the same moment, on SQLite and PostgreSQL: the same address
applying for the same opening from several tabs (one application is kept, the owner is
told by mail that it stands), and several members rejecting one candidate (one move, one
note queued). Without the check and the write as one serialised step, each would happen
several times."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from sqlmodel import Session, col, select

from rcxsite import careers
from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.mail.outgoing import MAIL
from rcxsite.models import StoredFile
from rcxsite.models.careers import JobApplication
from rcxsite.platform.db import get_engine
from tests.support import cv_files
from tests.support.fixtures import Configure
from tests.support.postgres import sqlite_or_postgres
from tests.support.site import jobs_of_kind, outbox_messages
from tests.support.staff import add_member

ROUNDS = 8
SENDS = 3


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    configure(application_limit="10000 per hour", application_email_limit="10000 per day")
    with sqlite_or_postgres(request.param, configure) as kind:
        yield kind


def _send_together(email: str) -> list[BaseException]:
    form = careers.ApplicationInput.parse(
        {
            "opening": "devops-engineer",
            "name": "Racing Applicant",
            "email": email,
            "location": "Leeds",
            "consent": "on",
        }
    )
    cv = careers.CvUpload("cv.pdf", cv_files.pdf())
    start = threading.Barrier(SENDS)
    errors: list[BaseException] = []

    def send() -> None:
        start.wait()
        try:
            careers.apply(form, cv, client_ip="10.5.5.5")
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=send) for _ in range(SENDS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_sends_at_the_same_moment_keep_one_application_and_one_cv(database: str) -> None:
    for number in range(ROUNDS):
        assert _send_together(f"racer-{number}@example.org") == []

    with Session(get_engine()) as session:
        kept = session.exec(select(JobApplication.email_key)).all()
        files = session.exec(select(col(StoredFile.key))).all()
    assert sorted(kept) == sorted(f"racer-{number}@example.org" for number in range(ROUNDS))
    assert len(files) == ROUNDS  # a repeat's CV is erased again
    texts = [message.get_body(("plain",)).get_content() for message in outbox_messages()]
    assert sum("no need to send it again" in text for text in texts) == ROUNDS * (SENDS - 1)


def test_two_members_rejecting_at_the_same_moment_move_once_and_queue_one_note(
    database: str,
) -> None:
    form = careers.ApplicationInput.parse(
        {
            "opening": "devops-engineer",
            "name": "N",
            "email": "n@example.org",
            "location": "L",
            "consent": "on",
        }
    )
    application_id = careers.apply(
        form, careers.CvUpload("cv.pdf", cv_files.pdf()), client_ip="10.5.5.6"
    ).application_id
    assert application_id is not None
    members = [add_member(f"Member {n}", f"m{n}@rcx.example", "hiring") for n in range(SENDS)]
    start = threading.Barrier(SENDS)
    refusals: list[int] = []
    errors: list[BaseException] = []

    def reject(actor: StaffActor) -> None:
        start.wait()
        try:
            careers.move(
                careers.StageInput.parse({"application_id": application_id, "stage": "rejected"}),
                actor=actor,
            )
        except ServiceError as refusal:
            refusals.append(refusal.status)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=reject, args=(member,)) for member in members]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert refusals == [409] * (SENDS - 1)
    detail = careers.candidate(members[0], application_id)
    assert [line.text for line in detail.history] == ["Applied → Rejected"]
    assert len([job for job in jobs_of_kind(MAIL, state="queued") if job.ref]) == 1
