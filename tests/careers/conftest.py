from __future__ import annotations

from tests.support.fixtures import bucket, configure, fresh_state, mailbox, object_store, site_root

__all__ = ["bucket", "configure", "fresh_state", "mailbox", "object_store", "site_root"]
