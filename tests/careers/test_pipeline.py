"""The hiring team's pipeline: counts per stage, a candidate's page, stage moves with the
held rejection note, notes, the audited CV, who may do any of it, and retention."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, col, select, update

from rcxsite import careers
from rcxsite.careers.retention import erase_old_applications
from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.mail.outgoing import MAIL
from rcxsite.models.careers import JobApplication
from rcxsite.platform.db import get_engine
from rcxsite.platform.file_store import FileMissing, get_file_store
from tests.support import cv_files
from tests.support.careers import OPENING, applicant
from tests.support.site import jobs_of_kind, outbox_messages
from tests.support.staff import add_member, audit_entries


@pytest.fixture
def recruiter() -> StaffActor:
    return add_member("Rita Recruiter", "rita@rcx.example", "hiring")


def stage(application_id: int, to: str) -> careers.StageInput:
    return careers.StageInput.parse({"application_id": application_id, "stage": to})


def test_the_pipeline_counts_each_opening_s_stages(recruiter: StaffActor) -> None:
    first, second = applicant(), applicant("Alan Turing", "alan@example.org")
    careers.move(stage(first, "screening"), actor=recruiter)

    by_slug = {pipeline.slug: pipeline for pipeline in careers.pipelines(recruiter)}

    assert by_slug[OPENING].counts == (1, 1, 0, 0, 0, 0)
    assert by_slug["senior-python-engineer"].total == 0
    [row] = careers.candidates(recruiter, opening=OPENING, stage="applied")
    assert (row.id, row.name, row.source) == (second, "Alan Turing", "Not attributed")


def test_a_move_is_one_save_with_history_and_audit(recruiter: StaffActor) -> None:
    application_id = applicant()

    detail = careers.move(stage(application_id, "interview"), actor=recruiter)

    assert detail.stage == "interview"
    assert [line.text for line in detail.history] == ["Applied → Interview"]
    assert detail.history[0].who == "Rita Recruiter"
    assert audit_entries()[-1].action == "candidate_stage_changed"
    with pytest.raises(ServiceError) as again:
        careers.move(stage(application_id, "interview"), actor=recruiter)
    assert again.value.status == 409


def test_a_rejection_note_is_held_two_working_days_and_moving_back_cancels_it(
    recruiter: StaffActor,
) -> None:
    application_id = applicant()
    outbox_messages()  # the confirmation went
    monday_noon = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

    detail = careers.move(stage(application_id, "rejected"), actor=recruiter, now=monday_noon)

    assert detail.rejection_pending
    [held] = jobs_of_kind(MAIL, state="queued")
    # 17 h of working time later: Wednesday, 12:00 London (UTC in winter).
    assert held.due_at.astimezone(UTC) == datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    undone = careers.move(stage(application_id, "screening"), actor=recruiter, now=monday_noon)
    assert not undone.rejection_pending
    assert jobs_of_kind(MAIL, state="queued") == []


def test_notes_are_kept_newest_first(recruiter: StaffActor) -> None:
    application_id = applicant()
    careers.add_note(
        careers.NoteInput.parse({"application_id": application_id, "text": "Strong CV"}),
        actor=recruiter,
    )
    detail = careers.add_note(
        careers.NoteInput.parse({"application_id": application_id, "text": "Call booked"}),
        actor=recruiter,
    )

    assert [(line.text, line.note) for line in detail.history] == [
        ("Call booked", True),
        ("Strong CV", True),
    ]


def test_the_cv_is_handed_out_to_the_hiring_team_and_each_hand_over_is_audited(
    recruiter: StaffActor,
) -> None:
    application_id = applicant()

    cv = careers.candidate_cv(recruiter, application_id)

    assert (cv.name, cv.file.content_type, cv.file.data) == (
        "cv.pdf",
        "application/pdf",
        cv_files.pdf(),
    )
    entry = audit_entries()[-1]
    assert (entry.action, entry.actor_name, entry.target) == (
        "candidate_cv_downloaded",
        "Rita Recruiter",
        f"application {application_id}",
    )


@pytest.mark.parametrize("role", ["sales", "support"])
def test_sales_and_support_see_no_candidate_and_no_cv(role: str) -> None:
    application_id = applicant()
    actor = add_member("Other Member", f"{role}@rcx.example", role)

    for call in (
        lambda: careers.pipelines(actor),
        lambda: careers.candidates(actor),
        lambda: careers.candidate(actor, application_id),
        lambda: careers.candidate_cv(actor, application_id),
        lambda: careers.move(stage(application_id, "hired"), actor=actor),
    ):
        with pytest.raises(ServiceError) as refusal:
            call()
        assert refusal.value.status == 403


def test_admins_hire_too() -> None:
    admin = add_member("Ann Admin", "ann@rcx.example", "admin")
    application_id = applicant()

    assert careers.candidate(admin, application_id).name == "Grace Hopper"


def test_applications_unchanged_for_12_months_are_erased_with_their_cv_unless_hired(
    recruiter: StaffActor,
) -> None:
    old, hired, recent = (
        applicant(),
        applicant("Hedy", "hedy@example.org"),
        applicant("Kay", "kay@example.org"),
    )
    careers.move(stage(hired, "hired"), actor=recruiter)
    year_ago = datetime.now(UTC) - timedelta(days=366)
    with Session(get_engine()) as session:
        session.exec(
            update(JobApplication)
            .where(col(JobApplication.id).in_([old, hired]))
            .values(changed_at=year_ago)
        )
        session.commit()
        old_key = session.exec(
            select(JobApplication.cv_key).where(col(JobApplication.id) == old)
        ).one()

    assert erase_old_applications() == 1

    assert {row.id for row in careers.candidates(recruiter)} == {hired, recent}
    with pytest.raises(FileMissing):
        get_file_store().get(old_key)
