from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.fixtures import configure, fresh_state, mailbox, redis_limits, site_root
from tests.support.staff import empty_staff_tables

__all__ = [
    "configure",
    "fresh_state",
    "mailbox",
    "redis_limits",
    "site_root",
    "staff_tables_emptied",
]


@pytest.fixture(autouse=True)
def staff_tables_emptied(fresh_state: None) -> Iterator[None]:
    empty_staff_tables()
    yield
