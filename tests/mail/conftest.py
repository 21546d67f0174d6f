from tests.support.fixtures import configure, fresh_state, mailbox, redis_limits, site_root

__all__ = ["configure", "fresh_state", "mailbox", "redis_limits", "site_root"]
