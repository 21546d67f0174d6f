"""Signed login tokens (JWT) and random password-reset tokens."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

import jwt

from rcxsite.models import utcnow
from rcxsite.settings import get_settings

_ALGORITHM = "HS256"
# 32 bytes = 256 random bits, URL-safe so the token can sit in the emailed link's path.
_RESET_TOKEN_BYTES = 32
_MAX_RESET_TOKEN_LENGTH = 256


@dataclass(frozen=True, slots=True)
class LoginClaims:
    customer_id: int
    issued_at: float  # seconds since the epoch, with microseconds


def issue_login_token(customer_id: int, *, now: datetime | None = None) -> str:
    issued = now or utcnow()
    expires = issued + timedelta(days=get_settings().login_token_days)
    claims = {
        "sub": str(customer_id),
        # A fractional iat tells a token issued just after a password reset from one issued
        # just before it within the same second (RFC 7519 NumericDate allows fractions).
        "iat": issued.timestamp(),
        "exp": int(expires.timestamp()),
    }
    return jwt.encode(claims, get_settings().signing_key(), algorithm=_ALGORITHM)


def decode_login_token(token: str) -> LoginClaims | None:
    """The claims of an intact, unexpired token of ours; None for anything else."""
    try:
        claims = jwt.decode(
            token,
            get_settings().signing_key(),
            algorithms=[_ALGORITHM],
            options={"require": ["sub", "iat", "exp"]},
        )
        return LoginClaims(customer_id=int(claims["sub"]), issued_at=float(claims["iat"]))
    except (jwt.PyJWTError, ValueError, TypeError):
        return None


def new_reset_token() -> tuple[str, str]:
    """A fresh token for the emailed link, and the digest to store instead of it."""
    token = secrets.token_urlsafe(_RESET_TOKEN_BYTES)
    return token, _sha256(token)


def reset_token_digest(token: str) -> str | None:
    """SHA-256 of a presented token; None when it cannot be one of ours."""
    if not token or len(token) > _MAX_RESET_TOKEN_LENGTH or not token.isascii():
        return None
    return _sha256(token)


def _sha256(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()
