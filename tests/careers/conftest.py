from __future__ import annotations

from tests.support.fixtures import configure, fresh_state, mailbox, site_root

__all__ = ["configure", "fresh_state", "mailbox", "site_root"]
