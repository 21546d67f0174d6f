from __future__ import annotations

import pytest

from rcxsite.core.permissions import StaffActor
from tests.support.fixtures import configure, fresh_state, mailbox, redis_limits, site_root
from tests.support.quiet_mail import mail_settled
from tests.support.staff import add_member

__all__ = ["configure", "fresh_state", "mail_settled", "mailbox", "redis_limits", "site_root"]


@pytest.fixture
def sales() -> StaffActor:
    return add_member("Sam Sales", "sam@rcx.example", "sales")
