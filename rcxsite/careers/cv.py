"""What a CV is, by its bytes: a PDF that opens and has no password, a Word document
(DOCX) or an OpenDocument text (ODT), of at most `CV_MAX_BYTES`.

The name the applicant's device gave the file only decides which message a refusal uses
("this is not the PDF its name says"); what is kept, and how it is served back, follows
from the bytes. Nothing here trusts the browser's content type.
"""

from __future__ import annotations

import io
import logging
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath

from rcxsite.core.ratelimit import Limit, client_key, hit
from rcxsite.core.service_errors import ServiceError
from rcxsite.models.careers import CV_NAME_MAX
from rcxsite.platform.settings import get_settings

CV_FIELD = "cv"
# The application form's tries per client address (APPLICATION_LIMIT), wherever counted.
LIMIT_SCOPE = "job-application"
CV_MAX_MB = 10
CV_MAX_BYTES = CV_MAX_MB * 1024 * 1024

PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
ODT = "application/vnd.oasis.opendocument.text"
KINDS: dict[str, str] = {PDF: "PDF", DOCX: "DOCX", ODT: "ODT"}
SUFFIXES: dict[str, str] = {".pdf": PDF, ".docx": DOCX, ".odt": ODT}
# What the file picker offers (the input's `accept`): the three kinds, by name and type.
ACCEPT = ",".join([*SUFFIXES, *KINDS])

CV_REQUIRED = "Please attach your CV (PDF, DOCX or ODT)"
CV_EMPTY = "This file is empty. Please choose your CV again"
CV_TOO_LARGE = f"Your CV must be at most {CV_MAX_MB} MB"
CV_WRONG_KIND = "Your CV must be a PDF, DOCX or ODT file"
CV_ENCRYPTED = "This PDF is protected by a password. Please attach a copy without one"
CV_ONE_FILE = "Please attach one file: your CV"

# A PDF's header may follow a little junk (the format allows 1 KiB of it).
_PDF_HEADER_WITHIN = 1024
_PDF_END_WITHIN = 1024
_ODT_MIMETYPE = ODT.encode()
# What a CV's archive may hold before any member is read: zipfile bounds what one read
# inflates for these two methods only (bzip2 and LZMA inflate a whole block at once), and
# a DOCX or ODT has a few dozen parts of a few MB at most.
_SAFE_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})
_MAX_PARTS = 2000
_MAX_UNPACKED = 100 * 1024 * 1024

logging.getLogger("pypdf").setLevel(logging.ERROR)  # a broken PDF is refused, not logged


def not_what_its_name_says(kind: str) -> str:
    return (
        f"This file is not a {kind}, whatever its name says. Please attach your CV as a "
        "PDF, DOCX or ODT file"
    )


def cannot_be_opened(kind: str) -> str:
    return f"This {kind} cannot be opened. Please save or export it again and attach the new copy"


@dataclass(frozen=True, slots=True)
class CheckedCv:
    name: str
    content_type: str
    data: bytes

    @property
    def kind(self) -> str:
        return KINDS[self.content_type]


def refused(message: str) -> ServiceError:
    return ServiceError(422, message, fields={CV_FIELD: message})


def clean_name(name: str, content_type: str) -> str:
    """The file's own name without any folder, printable, at most CV_NAME_MAX characters,
    ending in its kind's suffix; "cv.pdf" (or .docx, .odt) when nothing is left."""
    base = PureWindowsPath(PurePosixPath(name or "").name).name
    base = "".join(c for c in base if unicodedata.category(c)[0] not in "CZ" or c == " ")
    suffix = next(s for s, t in SUFFIXES.items() if t == content_type)
    stem = base.strip()
    if stem.lower().endswith(suffix):
        stem = stem[: -len(suffix)]
    stem = stem.strip(" .")[: CV_NAME_MAX - len(suffix)] or "cv"
    return stem + suffix


def _safe(archive: zipfile.ZipFile) -> bool:
    """Whether reading the archive's members stays bounded (no zip bomb)."""
    parts = archive.infolist()
    return (
        len(parts) <= _MAX_PARTS
        and all(part.compress_type in _SAFE_METHODS for part in parts)
        and sum(part.file_size for part in parts) <= _MAX_UNPACKED
    )


def sniffed_type(data: bytes) -> str:
    """PDF, DOCX or ODT by the bytes; "" for anything else."""
    if b"%PDF-" in data[:_PDF_HEADER_WITHIN]:
        return PDF
    if not data.startswith(b"PK\x03\x04"):
        return ""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if not _safe(archive):
                return ""
            names = set(archive.namelist())
            if "word/document.xml" in names and "[Content_Types].xml" in names:
                return DOCX
            if "mimetype" in names:
                with archive.open("mimetype") as member:
                    if member.read(len(_ODT_MIMETYPE) + 1).strip() == _ODT_MIMETYPE:
                        return ODT
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError):
        return ""
    return ""


def _pdf_problem(data: bytes) -> str:
    """ "" for a PDF that opens without a password, else the message."""
    from pypdf import PdfReader

    # A PDF ends with its end marker. Without one near the end, a reader hunts for it back
    # through the whole file (half a second on 10 MB): a cut or padded file is refused.
    if b"%%EOF" not in data[-_PDF_END_WITHIN:]:
        return cannot_be_opened("PDF")
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            return CV_ENCRYPTED
        if len(reader.pages) < 1:
            return cannot_be_opened("PDF")
    except Exception:  # pypdf raises many kinds on a broken file; each means the same here
        return cannot_be_opened("PDF")
    return ""


def _archive_problem(data: bytes, kind: str) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if not _safe(archive) or archive.testzip() is not None:
                return cannot_be_opened(kind)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError):
        return cannot_be_opened(kind)
    return ""


def check_cv(name: str, data: bytes) -> CheckedCv:
    """The CV as it will be kept, or a 422 `ServiceError` whose message (for the `cv`
    field) says what is wrong with it."""
    if not data:
        raise refused(CV_EMPTY)
    if len(data) > CV_MAX_BYTES:
        raise refused(CV_TOO_LARGE)
    claimed = SUFFIXES.get(PurePosixPath(name.lower()).suffix, "")
    content_type = sniffed_type(data)
    if not content_type:
        if claimed == PDF and data.lstrip()[:5] == b"%PDF-":
            raise refused(cannot_be_opened("PDF"))
        if claimed in (DOCX, ODT) and data.startswith(b"PK\x03\x04"):
            raise refused(cannot_be_opened(KINDS[claimed]))
        raise refused(not_what_its_name_says(KINDS[claimed]) if claimed else CV_WRONG_KIND)
    if claimed and claimed != content_type:
        raise refused(not_what_its_name_says(KINDS[claimed]))
    problem = (
        _pdf_problem(data) if content_type == PDF else _archive_problem(data, KINDS[content_type])
    )
    if problem:
        raise refused(problem)
    return CheckedCv(name=clean_name(name, content_type), content_type=content_type, data=data)


def cv_message(name: str, data: bytes, *, client_ip: str) -> str:
    """What is wrong with a CV ("" when nothing is), for a form that shows it beside
    other fields' messages before anything is sent. Counted as a try against the
    application limit, as `apply` counts one: the checks cost the server."""
    try:
        hit(Limit(get_settings().application_limit, LIMIT_SCOPE, client_key(client_ip)))
        check_cv(name, data)
    except ServiceError as refusal:
        return refusal.fields.get(CV_FIELD, refusal.message)
    return ""
