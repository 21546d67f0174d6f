"""A visitor without a cookie: a keyed hash of the address, the user agent and the site's
host under the day's key. Every worker uses the same random salt (it is in the
database); a new one is made each day (UTC) and salts are deleted after two days, after
which nobody can tell whose a visitor id was. The day's key is the salt put through an
HMAC under the server secret (SECRET_KEY, never in the database): a copy of the database,
salts and all, cannot be used to try addresses against its visitor ids."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from datetime import date, datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from rcxsite.models.analytics import VISITOR_LENGTH, AnalyticsSalt
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings

# Keeps this key apart from every other use of the server secret (keyed_hash, tokens).
_DAY_KEY_LABEL = b"rcx analytics visitor\x00"
_cache: dict[date, str] = {}
_cache_lock = threading.Lock()


def _stored_salt(session: Session, day: date) -> str | None:
    return session.exec(select(AnalyticsSalt.salt).where(AnalyticsSalt.day == day)).first()


def salt_for(day: date, *, create: bool = True) -> str | None:
    """The salt of `day`, made by whichever worker needs it first. In transactions of its
    own, before the caller's: SQLite has one writer at a time."""
    with _cache_lock:
        if day in _cache:
            return _cache[day]
    with session_scope() as own:
        salt = _stored_salt(own, day)
    if salt is None and create:
        # Committed on its own before anyone uses it: a batch that fails afterwards must
        # not leave this worker with a salt the others never see.
        try:
            with session_scope() as own:
                own.add(AnalyticsSalt(day=day, salt=secrets.token_hex(32)))
        except IntegrityError:  # another worker made it first
            pass
        with session_scope() as own:
            salt = _stored_salt(own, day)
    if salt is not None:
        with _cache_lock:
            for old in [known for known in _cache if known < day - timedelta(days=1)]:
                del _cache[old]
            _cache[day] = salt
    return salt


def forget_old_salts(session: Session, *, now: datetime) -> int:
    """Delete the salts made over 48 hours ago: only today's is used, and yesterday's (so a
    visit that spans midnight stays one visit); how many."""
    oldest_kept = now.date() - timedelta(days=1)
    with _cache_lock:
        for day in [known for known in _cache if known < oldest_kept]:
            del _cache[day]
    result = session.exec(delete(AnalyticsSalt).where(col(AnalyticsSalt.day) < oldest_kept))
    return int(result.rowcount or 0)


def day_key(salt: str) -> bytes:
    """The key of the day whose stored salt is `salt`: HMAC-SHA256 under the server secret
    of a label and the salt."""
    secret = get_settings().signing_key().encode()
    return hmac.new(secret, _DAY_KEY_LABEL + bytes.fromhex(salt), hashlib.sha256).digest()


def visitor_id(key: bytes, *, address: str, user_agent: str, host: str) -> str:
    """The visitor under a day's `key` (`day_key`): 16 bytes of BLAKE2b, in hex."""
    digest = hashlib.blake2b(f"{address}\n{user_agent}\n{host}".encode(), key=key, digest_size=16)
    return digest.hexdigest()[:VISITOR_LENGTH]
