"""A CV is judged by its bytes: what its name claims only picks the message."""

from __future__ import annotations

import io
import zipfile

import pytest

from rcxsite.careers.cv import CV_MAX_BYTES, DOCX, ODT, PDF, check_cv, cv_message
from rcxsite.core.service_errors import ServiceError
from tests.support import cv_files


@pytest.mark.parametrize(
    ("name", "data", "content_type", "kept_as"),
    [
        ("Jane Doe CV.pdf", cv_files.pdf(), PDF, "Jane Doe CV.pdf"),
        ("cv.DOCX", cv_files.docx(), DOCX, "cv.docx"),
        ("lebenslauf.odt", cv_files.odt(), ODT, "lebenslauf.odt"),
        # The bytes decide: a PDF named without a suffix is kept as the PDF it is.
        ("scan", cv_files.pdf(), PDF, "scan.pdf"),
        ("C:\\Users\\jane\\..\\cv\u202e.pdf", cv_files.pdf(), PDF, "cv.pdf"),
    ],
)
def test_a_pdf_docx_or_odt_is_taken_and_named_for_what_it_is(
    name: str, data: bytes, content_type: str, kept_as: str
) -> None:
    checked = check_cv(name, data)

    assert (checked.content_type, checked.name, checked.data) == (content_type, kept_as, data)


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("cv.pdf", b"", "This file is empty. Please choose your CV again"),
        (
            "cv.pdf",
            cv_files.PROGRAM,
            "This file is not a PDF, whatever its name says. Please attach your CV as a PDF, "
            "DOCX or ODT file",
        ),
        (
            "cv.docx",
            cv_files.pdf(),
            "This file is not a DOCX, whatever its name says. Please attach your CV as a PDF, "
            "DOCX or ODT file",
        ),
        ("setup.exe", cv_files.PROGRAM, "Your CV must be a PDF, DOCX or ODT file"),
        ("holiday.zip", cv_files.other_zip(), "Your CV must be a PDF, DOCX or ODT file"),
        (
            "cv.pdf",
            cv_files.pdf(password="secret"),
            "This PDF is protected by a password. Please attach a copy without one",
        ),
        (
            "cv.pdf",
            cv_files.broken_pdf(),
            "This PDF cannot be opened. Please save or export it again and attach the new copy",
        ),
        (
            "cv.docx",
            cv_files.docx()[:60],
            "This DOCX cannot be opened. Please save or export it again and attach the new copy",
        ),
        ("cv.pdf", cv_files.pdf(size=CV_MAX_BYTES + 1), "Your CV must be at most 10 MB"),
        (
            "cv.pdf",
            cv_files.pdf() + b"%" + b"x" * 5000,
            "This PDF cannot be opened. Please save or export it again and attach the new copy",
        ),
    ],
    ids=[
        "empty",
        "program",
        "pdf-as-docx",
        "exe",
        "zip",
        "encrypted",
        "broken",
        "cut",
        "over-10mb",
        "tail-after-end",
    ],
)
def test_a_file_that_is_not_a_readable_cv_is_refused_with_what_is_wrong(
    name: str, data: bytes, message: str
) -> None:
    with pytest.raises(ServiceError) as refusal:
        check_cv(name, data)

    assert refusal.value.status == 422
    assert dict(refusal.value.fields) == {"cv": message}


def test_a_cv_of_exactly_10_mb_is_taken() -> None:
    data = cv_files.pdf(size=CV_MAX_BYTES)

    assert check_cv("cv.pdf", data).content_type == PDF


def _bomb(method: int) -> bytes:
    """A DOCX-looking archive whose one part inflates to 200 MB."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", b"\0" * (200 * 1024 * 1024), compress_type=method)
    return out.getvalue()


@pytest.mark.parametrize(
    "method",
    [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA],
    ids=["deflate", "bzip2", "lzma"],
)
def test_an_archive_that_would_inflate_past_100_mb_is_refused_unread(method: int) -> None:
    bomb = _bomb(method)
    assert len(bomb) < 1024 * 1024

    with pytest.raises(ServiceError) as refusal:
        check_cv("cv.docx", bomb)

    assert refusal.value.fields == {
        "cv": "This DOCX cannot be opened. Please save or export it again and attach the new copy"
    }


def test_the_form_s_early_cv_check_counts_against_the_application_limit(configure) -> None:
    configure(application_limit="2 per hour")
    assert cv_message("cv.pdf", cv_files.PROGRAM, client_ip="10.9.9.9").startswith("This file")
    assert cv_message("cv.pdf", cv_files.pdf(), client_ip="10.9.9.9") == ""
    assert cv_message("cv.pdf", cv_files.pdf(), client_ip="10.9.9.9").startswith(
        "Too many requests"
    )
