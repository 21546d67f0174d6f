"""Argon2id password hashing through passlib (the maintained `libpass` fork)."""

from __future__ import annotations

import secrets
from functools import lru_cache

from passlib.context import CryptContext

from rcxsite.platform.settings import get_settings


@lru_cache(maxsize=4)
def _context(memory_cost: int, time_cost: int, parallelism: int) -> CryptContext:
    return CryptContext(
        schemes=["argon2"],
        argon2__type="ID",
        argon2__memory_cost=memory_cost,
        argon2__time_cost=time_cost,
        argon2__parallelism=parallelism,
    )


def _current_context() -> CryptContext:
    settings = get_settings()
    return _context(
        settings.argon2_memory_cost_kib, settings.argon2_time_cost, settings.argon2_parallelism
    )


def _encode(password: str) -> bytes:
    # JSON can carry lone surrogates; hashing their bytes beats crashing on them.
    return password.encode("utf-8", "surrogatepass")


def hash_password(password: str) -> str:
    hashed: str = _current_context().hash(_encode(password))  # passlib has no type hints
    return hashed


@lru_cache(maxsize=4)
def _dummy_hash(context: CryptContext) -> str:
    hashed: str = context.hash(secrets.token_bytes(16))
    return hashed


def verify_password(password: str, stored_hash: str | None) -> tuple[bool, str | None]:
    """Whether `password` matches, and a fresh hash when the stored one uses old parameters.

    Without a stored hash (unknown account) a dummy hash is checked anyway so that the
    answer takes as long as for a real account.
    """
    context = _current_context()
    if stored_hash is None:
        context.verify(_encode(password), _dummy_hash(context))
        return False, None
    matches, new_hash = context.verify_and_update(_encode(password), stored_hash)
    return bool(matches), new_hash
