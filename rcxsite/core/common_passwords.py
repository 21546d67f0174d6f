"""Refusing the passwords attackers try first, from zxcvbn's list of the 30,000 most common."""

from __future__ import annotations

from functools import lru_cache

COMMON_PASSWORD = "This password is too common. Please choose a less predictable one."


@lru_cache(maxsize=1)
def _common_passwords() -> frozenset[str]:
    # Imported on first use: the frequency lists take a moment and some memory to load.
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(FREQUENCY_LISTS["passwords"])


def is_common_password(password: str) -> bool:
    """Case-blind, as guessing tools try "Password" right after "password"."""
    return password.lower() in _common_passwords()
