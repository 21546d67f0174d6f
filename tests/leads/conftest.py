from __future__ import annotations

import pytest

from tests.support.fixtures import (
    Configure,
    configure,
    fresh_state,
    mailbox,
    redis_limits,
    site_root,
)
from tests.support.quiet_mail import mail_settled

LEADS = "leads@rcx.test"

__all__ = ["configure", "fresh_state", "mail_settled", "mailbox", "redis_limits", "site_root"]


@pytest.fixture
def leads_address(configure: Configure) -> str:
    """SALES_EMAIL set before a `mailbox` listed after this fixture starts its runner: a
    setting changed while that runner's thread reads the settings can be cached stale
    (its read began before the change and ends after the cache was cleared), and the
    mail then goes to the default address."""
    configure(sales_email=LEADS)
    return LEADS
