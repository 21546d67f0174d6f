"""A visitor without a cookie: a keyed hash of the day's random salt, the address, the
user agent and the site's host. Every worker uses the same salt (it is in the database);
a new one is made each day (UTC) and salts are deleted after two days, after which
nobody can tell whose a visitor id was."""

from __future__ import annotations

import hashlib
import secrets
import threading
from datetime import date, datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from rcxsite.db import session_scope
from rcxsite.models.analytics import VISITOR_LENGTH, AnalyticsSalt

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


def visitor_id(salt: str, *, address: str, user_agent: str, host: str) -> str:
    digest = hashlib.blake2b(
        f"{address}\n{user_agent}\n{host}".encode(), key=bytes.fromhex(salt), digest_size=16
    )
    return digest.hexdigest()[:VISITOR_LENGTH]
