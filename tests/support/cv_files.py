"""CVs as a job seeker's device would send them: a one-page PDF, a Word document, an
OpenDocument text, and the files that must be refused (a program renamed cv.pdf, a PDF
with a password, a broken one)."""

from __future__ import annotations

import io
import random
import zipfile

from pypdf import PdfWriter
from pypdf.generic import DecodedStreamObject, NameObject

# The first bytes of a Windows program (MZ header), which a renamed file keeps.
PROGRAM = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00" + bytes(2048)


def pdf(*, password: str = "", pages: int = 1, size: int = 0) -> bytes:
    """A real PDF of `pages` blank pages; with `password`, encrypted; with `size`, exactly
    that many bytes, the bulk in a stream of random bytes (as a scan's images are)."""
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=595, height=842)
    if password:
        writer.encrypt(password)
    if not size:
        return _written(writer)
    bulk = DecodedStreamObject()
    bulk.set_data(b"")
    writer.pages[0][NameObject("/Bulk")] = writer._add_object(bulk)
    overhead = len(_written(writer))
    bulk.set_data(random.Random(size).randbytes(size - overhead))
    data = _written(writer)
    # The stream's length is written in digits: a longer number, a few more bytes.
    bulk.set_data(random.Random(size).randbytes(size - overhead - (len(data) - size)))
    data = _written(writer)
    assert len(data) == size, (len(data), size)
    return data


def _written(writer: PdfWriter) -> bytes:
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


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
