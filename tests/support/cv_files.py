"""CVs as a job seeker's device would send them: a one-page PDF, a Word document, an
OpenDocument text, and the files that must be refused (a program renamed cv.pdf, a PDF
with a password, a broken one)."""

from __future__ import annotations

import io
import zipfile

from pypdf import PdfWriter

# The first bytes of a Windows program (MZ header), which a renamed file keeps.
PROGRAM = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00" + bytes(2048)


def pdf(*, password: str = "", pages: int = 1, padding: int = 0) -> bytes:
    """A real PDF of `pages` blank pages; with `password`, encrypted; `padding` bytes of a
    comment after it make it as large as a test needs."""
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=595, height=842)
    if password:
        writer.encrypt(password)
    out = io.BytesIO()
    writer.write(out)
    data = out.getvalue()
    return data + (b"%" + b"x" * (padding - 2) + b"\n" if padding > 1 else b"")


def broken_pdf() -> bytes:
    """A PDF header and then nothing a reader can use (a download cut short)."""
    return pdf()[:40]


def docx() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        archive.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships/>')
        archive.writestr("word/document.xml", '<?xml version="1.0"?><w:document/>')
    return out.getvalue()


def odt() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text", zipfile.ZIP_STORED)
        archive.writestr("content.xml", '<?xml version="1.0"?><office:document-content/>')
    return out.getvalue()


def other_zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("photo.jpg", b"\xff\xd8\xff" + bytes(100))
    return out.getvalue()
