"""The login token: a JWT (HS256 under the server's key) naming a session's random id.

The signature and `exp` are checked before any database lookup, so a forged or expired
token costs the server no query; the session row (only the SHA-256 of its id is stored)
still decides whether the login is live: logout, idle expiry, revocation.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import jwt

from rcxsite.platform.settings import keyed_hash

ALGORITHM = "HS256"
# Far above a real token (~200 characters); anything longer is not decoded at all.
MAX_TOKEN_LENGTH = 512
_REQUIRED_CLAIMS = ["sid", "iat", "exp"]


def _key() -> str:
    # Derived from the signing key, so that no other use of that key can produce a token.
    return keyed_hash("login-token-signing-key")


def issue(session_id: str, *, issued_at: datetime, lifetime: timedelta) -> str:
    claims = {"sid": session_id, "iat": issued_at, "exp": issued_at + lifetime}
    return jwt.encode(claims, _key(), algorithm=ALGORITHM)


def session_id(token: object) -> str | None:
    """The session id a genuine, unexpired token names; None for anything else."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    try:
        claims = jwt.decode(
            token, _key(), algorithms=[ALGORITHM], options={"require": _REQUIRED_CLAIMS}
        )
    except jwt.InvalidTokenError:
        return None
    sid = claims.get("sid")
    return sid if isinstance(sid, str) and sid.isascii() and 0 < len(sid) <= 128 else None
