"""The tests' hold on the rate limits: what a test controls, reached through the app's own
storage lookup (`rcxsite.core.ratelimit.configured_storage`, the one `hit()` counts in)."""

from __future__ import annotations

from rcxsite.core import ratelimit


def reset_rate_limits() -> None:
    """Forget every counter of the configured storage (memory, or the Redis key prefix)."""
    ratelimit.configured_storage().reset()


def forget_storage_connections() -> None:
    """Drop the opened storages, as a fresh worker process would start: the next `hit()`
    connects again with the settings of that moment."""
    ratelimit.open_storage.cache_clear()
