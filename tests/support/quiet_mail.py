"""Between tests that queue mail: the job runner of a test's `mailbox` records a mail's
outcome (a quote's `mailed_at`) after the test's own work, so each test waits for it
before and after, and the next one starts on empty tables (reset_state)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rcxsite.mail import wait_for_outgoing_mail


@pytest.fixture(autouse=True)
def mail_settled(fresh_state: None) -> Iterator[None]:
    assert wait_for_outgoing_mail(30), "mail outcomes were not recorded in time"
    yield
    assert wait_for_outgoing_mail(30), "mail outcomes were not recorded in time"
