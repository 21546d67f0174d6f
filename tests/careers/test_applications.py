"""Applying with a CV, end to end below the screens: checks, the kept row and file, the
applicant's mail, duplicates, limits, the bot trap, and withdrawing by the mail's link."""

from __future__ import annotations

import re

import pytest
from sqlmodel import Session, col, select

from rcxsite import careers
from rcxsite.core import tokens
from rcxsite.core.attribution import Attribution, Touch
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import StoredFile
from rcxsite.models.careers import ApplicationChange, JobApplication
from rcxsite.platform.db import get_engine
from rcxsite.platform.file_store import FileMissing, get_file_store
from tests.support import cv_files
from tests.support.fixtures import Configure
from tests.support.scratch_services import ScratchObjectStore
from tests.support.site import SITE_URL, outbox_messages

OPENING = "senior-python-engineer"
IP = "203.0.113.7"


def fields(**changes: object) -> dict[str, object]:
    return {
        "opening": OPENING,
        "name": "Ada Lovelace",
        "email": "ada@example.org",
        "phone": "+44 20 7946 0000",
        "location": "Manchester",
        "link": "https://github.com/ada",
        "note": "I build data pipelines in Python.",
        "consent": "on",
        "website": "",
        **changes,
    }


def send(cv: careers.CvUpload | None = None, **changes: object) -> careers.ApplicationReceipt:
    application = careers.ApplicationInput.parse(fields(**changes))
    upload = cv if cv is not None else careers.CvUpload("Ada CV.pdf", cv_files.pdf())
    return careers.apply(
        application,
        upload,
        client_ip=IP,
        attribution=Attribution(Touch("newsletter", "email", "spring", "/careers")),
    )


def rows() -> list[JobApplication]:
    with Session(get_engine()) as session:
        found = list(session.exec(select(JobApplication).order_by(col(JobApplication.id))))
        for row in found:
            session.expunge(row)
        return found


def withdraw_token(text: str) -> str:
    match = re.search(re.escape(SITE_URL) + r"/careers/withdraw/([A-Za-z0-9_-]+)", text)
    assert match, text
    return match.group(1)


def test_an_application_keeps_the_cv_in_the_file_store_and_mails_what_happens_next() -> None:
    receipt = send()

    assert receipt.message == "Thank you! Your application has been received."
    [row] = rows()
    assert (row.name, row.email, row.opening, row.stage) == (
        "Ada Lovelace",
        "ada@example.org",
        OPENING,
        "applied",
    )
    assert (row.cv_name, row.cv_type, row.source, row.campaign) == (
        "Ada CV.pdf",
        "application/pdf",
        "newsletter",
        "spring",
    )
    assert get_file_store().get(row.cv_key).data == cv_files.pdf()
    [mail] = outbox_messages()
    assert mail["To"] == "ada@example.org"
    assert mail["Subject"] == "Your application to RCX: Senior Python Engineer"
    text = mail.get_body(("plain",)).get_content()
    assert "replies within five working days" in text
    assert "12 months" in text
    assert tokens.token_digest(withdraw_token(text)) == row.withdraw_digest


def test_a_refused_cv_keeps_nothing_and_names_the_field() -> None:
    with pytest.raises(ServiceError) as refusal:
        send(careers.CvUpload("cv.pdf", cv_files.PROGRAM))

    assert refusal.value.fields == {
        "cv": "This file is not a PDF, whatever its name says. Please attach your CV as a PDF, "
        "DOCX or ODT file"
    }
    assert rows() == []
    with Session(get_engine()) as session:
        assert session.exec(select(StoredFile)).all() == []


def test_no_cv_is_asked_for() -> None:
    with pytest.raises(ServiceError) as refusal:
        careers.apply(careers.ApplicationInput.parse(fields()), None, client_ip=IP)

    assert refusal.value.fields == {"cv": "Please attach your CV (PDF, DOCX or ODT)"}


def test_the_same_opening_twice_within_30_days_is_kept_once_and_its_owner_told_kindly() -> None:
    send()
    outbox_messages()  # the first confirmation
    receipt = send(email="ADA@example.org")

    # Whoever sent the form learns nothing of the address's owner...
    assert receipt.message == "Thank you! Your application has been received."
    assert receipt.application_id is None
    assert len(rows()) == 1
    # ...who is told by mail that their application stands.
    [notice] = [
        m
        for m in outbox_messages()
        if "no need to send it again" in m.get_body(("plain",)).get_content()
    ]
    assert notice["To"].lower() == "ada@example.org"
    assert "You applied for this role on " in notice.get_body(("plain",)).get_content()
    send(opening="react-front-end-developer")
    assert len(rows()) == 2


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"name": " "}, "name", "Name is required"),
        ({"email": "ada@"}, "email", "Invalid email"),
        ({"phone": "12"}, "phone", "Invalid phone number"),
        ({"location": ""}, "location", "Please tell us where you are based"),
        (
            {"link": "javascript:alert(1)"},
            "link",
            "Please enter a full web address, starting with https://",
        ),
        ({"consent": ""}, "consent", "Please agree that we keep your application for 12 months"),
        ({"opening": "astronaut"}, "opening", "This opening is no longer taking applications"),
    ],
)
def test_each_field_has_its_message(changes: dict[str, object], field: str, message: str) -> None:
    form, errors = careers.ApplicationInput.read(fields(**changes))

    assert form is None
    assert errors == {field: message}


def test_the_limit_per_address_counts_every_try(configure: Configure) -> None:
    configure(application_limit="2 per hour")
    send()
    with pytest.raises(ServiceError):
        send(careers.CvUpload("cv.pdf", b""), opening="react-front-end-developer")
    with pytest.raises(ServiceError) as refusal:
        send(opening="react-front-end-developer")

    assert refusal.value.status == 429
    assert len(rows()) == 1


def test_the_limit_per_email_counts_applications_and_duplicates(configure: Configure) -> None:
    configure(application_email_limit="1 per day")
    send()
    with pytest.raises(ServiceError) as refusal:
        send(opening="react-front-end-developer")

    assert refusal.value.status == 429


def test_a_bot_that_fills_the_trap_is_thanked_and_nothing_is_kept() -> None:
    receipt = careers.note_trapped_application(client_ip=IP)

    assert receipt.message == "Thank you! Your application has been received."
    assert rows() == []
    assert outbox_messages() == []


def test_the_mail_s_link_withdraws_erasing_the_application_and_its_cv_at_once() -> None:
    send()
    [row] = rows()
    token = withdraw_token(outbox_messages()[0].get_body(("plain",)).get_content())
    digest = tokens.token_digest(token)

    preview = careers.withdrawal_preview(link_digest=digest)
    assert (preview.name, preview.opening_title) == ("Ada Lovelace", "Senior Python Engineer")
    assert (
        careers.withdraw(link_digest=digest)
        == "Your application was withdrawn, and your CV erased."
    )

    assert rows() == []
    with Session(get_engine()) as session:
        assert session.exec(select(ApplicationChange)).all() == []
    with pytest.raises(FileMissing):
        get_file_store().get(row.cv_key)
    with pytest.raises(ServiceError) as again:
        careers.withdraw(link_digest=digest)
    assert again.value.status == 404


def test_with_an_s3_store_the_cv_is_an_object_there_and_withdrawing_erases_it(
    bucket: str, object_store: ScratchObjectStore
) -> None:
    ten_mb = cv_files.pdf(size=10 * 1024 * 1024)
    send(careers.CvUpload("cv.pdf", ten_mb))
    [row] = rows()

    [kept] = object_store.client().list_objects_v2(Bucket=bucket)["Contents"]
    assert (kept["Key"], kept["Size"]) == (f"site/{row.cv_key}", len(ten_mb))
    with Session(get_engine()) as session:
        assert session.exec(select(StoredFile)).all() == []
    careers.withdraw(link_digest=row.withdraw_digest)
    assert "Contents" not in object_store.client().list_objects_v2(Bucket=bucket)
