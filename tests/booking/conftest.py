from __future__ import annotations

from collections.abc import Iterator

import pytest

from rcxsite.mail import wait_for_outgoing_mail
from tests.support.booking import empty_booking_tables
from tests.support.fixtures import configure, fresh_state, mailbox, site_root

__all__ = ["configure", "empty_tables", "fresh_state", "mailbox", "site_root"]


@pytest.fixture(autouse=True)
def empty_tables(fresh_state: None) -> Iterator[None]:
    # tests/support's reset_state only knows the tables that came before booking.
    empty_booking_tables()
    yield
    assert wait_for_outgoing_mail(30), "booking mail outcomes were not recorded in time"
