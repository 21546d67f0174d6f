from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlmodel import Session, delete

from rcxsite.core.permissions import StaffActor
from rcxsite.models import QuoteRequest
from rcxsite.platform.db import get_engine
from tests.support.fixtures import configure, fresh_state, mailbox, redis_limits, site_root
from tests.support.staff import add_member, empty_staff_tables

__all__ = [
    "configure",
    "fresh_state",
    "mailbox",
    "no_quote_requests",
    "redis_limits",
    "sales",
    "site_root",
    "staff_tables_emptied",
]


@pytest.fixture(autouse=True)
def staff_tables_emptied(fresh_state: None) -> Iterator[None]:
    empty_staff_tables()
    yield


@pytest.fixture
def no_quote_requests(fresh_state: None) -> None:
    with Session(get_engine()) as session:
        session.exec(delete(QuoteRequest))
        session.commit()


@pytest.fixture
def sales() -> StaffActor:
    return add_member("Sam Sales", "sam@rcx.example", "sales")
