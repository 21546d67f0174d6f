from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlmodel import Session, delete

from rcxsite.db import get_engine
from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.models import QuoteRequest
from tests.support.fixtures import configure, fresh_state, mailbox, redis_limits, site_root
from tests.support.staff import empty_staff_tables

__all__ = [
    "configure",
    "empty_quote_table",
    "fresh_state",
    "mailbox",
    "redis_limits",
    "site_root",
]


@pytest.fixture(autouse=True)
def empty_quote_table(fresh_state: None) -> Iterator[None]:
    # tests/support's reset_state only knows the account tables.
    assert wait_for_outgoing_mail(30), "quote mail outcomes were not recorded in time"
    with Session(get_engine()) as session:
        session.exec(delete(QuoteRequest))  # notes and history cascade
        session.commit()
    empty_staff_tables()
    yield
    assert wait_for_outgoing_mail(30), "quote mail outcomes were not recorded in time"
