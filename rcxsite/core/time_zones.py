"""The time zones the site knows: the zone database's names, read once per process
(reading them takes milliseconds)."""

from __future__ import annotations

from functools import lru_cache
from zoneinfo import available_timezones


@lru_cache(maxsize=1)
def known_zones() -> frozenset[str]:
    """Every name the zone database has (aliases such as "GMT0" included)."""
    return frozenset(available_timezones())


@lru_cache(maxsize=1)
def place_zones() -> tuple[str, ...]:
    """The zones of a place ("Europe/London"), sorted: what a person picks from."""
    return tuple(sorted(zone for zone in known_zones() if "/" in zone))
