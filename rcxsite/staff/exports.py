"""The back office's CSV downloads (inbox, audit log), bounded in size.

A download reaches the browser as one websocket message (the state's `rx.download`) and
is built in the worker's memory: past `STAFF_EXPORT_MAX_BYTES` the export stops and is
refused with what to do instead, so no filter can make one message of any size. The
rows are read from the database in chunks of ROWS_PER_READ (a server-side cursor on
PostgreSQL), so a refused export stops reading too instead of loading the whole table
first. The command line's export (`python -m rcxsite.leads export`) writes to a file and
has no bound.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence

from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.settings import get_settings

# The query options of an export's rows: without them the ORM loads every row the
# filters select before handing over the first one, and the size bound comes too late.
ROWS_PER_READ = 500
READ_IN_CHUNKS: dict[str, object] = {"yield_per": ROWS_PER_READ, "stream_results": True}

TOO_LARGE = (
    "This export is larger than {size}, the most one download can hold: narrow "
    "the filters ({filters}) and export it in parts."
)


class _CountedText:
    """What the CSV writer writes, with its size in UTF-8 bytes as it grows."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def write(self, text: str) -> int:
        self.parts.append(text)
        self.size += len(text.encode("utf-8"))
        return len(text)


def _size_text(size: int) -> str:
    for unit, amount in (("MB", 1_000_000), ("kB", 1000)):
        if size >= amount:
            return f"{size / amount:.3g} {unit}"
    return f"{size} bytes"


def bounded_csv(header: Sequence[str], rows: Iterable[Sequence[str]], *, filters: str) -> str:
    """`header` and `rows` as CSV text; ServiceError 413 (naming `filters`, what the screen
    can narrow) once it grows past the setting, before the rest is read: `rows` from a
    query with READ_IN_CHUNKS, which fetches them as they are written."""
    limit = get_settings().staff_export_max_bytes
    out = _CountedText()
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        writer.writerow(row)
        if out.size > limit:
            raise ServiceError(413, TOO_LARGE.format(size=_size_text(limit), filters=filters))
    return "".join(out.parts)
