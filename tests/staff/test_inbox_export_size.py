"""The inbox's Export CSV travels to the browser as one message: past a size it is refused
with what to do instead, and nothing is recorded as exported."""

from __future__ import annotations

import pytest

from rcxsite.core.service_errors import ServiceError
from rcxsite.models import QuoteRequest
from rcxsite.staff.inbox import InboxFilter, export_csv
from tests.support.fixtures import Configure
from tests.support.postgres import scratch_postgres
from tests.support.quotes import add_numbered
from tests.support.rows_read import rows_loaded
from tests.support.staff import add_member, audit_entries


def test_an_export_over_the_size_limit_is_refused_with_what_to_do(
    configure: Configure,
) -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    add_numbered(40, message="We need a portal. " * 200)  # about 3.6 kB a row
    configure(staff_export_max_bytes=100_000)

    with pytest.raises(ServiceError) as refused:
        export_csv(actor=sales, where=InboxFilter(status="all"))

    assert (refused.value.status, refused.value.message) == (
        413,
        "This export is larger than 100 kB, the most one download can hold: narrow the "
        "filters (status, owner, dates or search) and export it in parts.",
    )
    assert audit_entries() == []
    # A narrower filter fits, and is exported as before.
    text = export_csv(actor=sales, where=InboxFilter(status="all", search="Client 1"))
    assert text.count("We need a portal.") == 11 * 200
    assert [entry.action for entry in audit_entries()] == ["quotes_exported"]


def _refused_after_reading(configure: Configure) -> int:
    """Rows read by an export refused about 250 rows in, of 2000."""
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    add_numbered(2000, message="We need a portal. " * 20)  # about 400 bytes a row
    configure(staff_export_max_bytes=100_000)
    with rows_loaded(QuoteRequest) as loaded, pytest.raises(ServiceError) as refused:
        export_csv(actor=sales, where=InboxFilter(status="all"))
    assert refused.value.status == 413
    assert audit_entries() == []
    return loaded[0]


def test_an_export_stops_reading_the_table_once_it_is_too_large(
    configure: Configure,
) -> None:
    # Read in chunks: what was written, and at most the rest of one chunk, not the table.
    assert _refused_after_reading(configure) < 1000


def test_an_export_stops_reading_the_table_on_postgresql(configure: Configure) -> None:
    with scratch_postgres(configure):
        assert _refused_after_reading(configure) < 1000
        # A narrower filter is read to its end and recorded, in the same transaction.
        sales = add_member("Sue Sales", "sue@rcx.example", "sales")
        text = export_csv(actor=sales, where=InboxFilter(status="all", search="Client 19"))
        assert text.count("We need a portal.") == 111 * 20
        assert [entry.action for entry in audit_entries()] == ["quotes_exported"]
