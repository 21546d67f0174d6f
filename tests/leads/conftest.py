from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlmodel import Session, delete

from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.models import QuoteRequest
from rcxsite.platform.db import get_engine
from tests.support.fixtures import (
    Configure,
    configure,
    fresh_state,
    mailbox,
    redis_limits,
    site_root,
)
from tests.support.staff import empty_staff_tables

LEADS = "leads@rcx.test"

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


@pytest.fixture
def leads_address(configure: Configure) -> str:
    """SALES_EMAIL set before a `mailbox` listed after this fixture starts its runner: a
    setting changed while that runner's thread reads the settings can be cached stale
    (its read began before the change and ends after the cache was cleared), and the
    mail then goes to the default address."""
    configure(sales_email=LEADS)
    return LEADS
