"""Random tokens: login-session tokens and password-reset tokens; only digests are stored."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from rcxsite.platform.settings import keyed_hash

# 32 bytes = 256 random bits, URL-safe so a token can sit in a link's path or a cookie.
_TOKEN_BYTES = 32
_MAX_TOKEN_LENGTH = 256
# Marks a token already replaced by its digest: what the screens see of the login cookie
# and of the reset link (rcxsite/web/sealed_event_cookies.py, sealed_event_paths.py).
DIGEST_PREFIX = "sha256:"


def new_token() -> tuple[str, str]:
    """A fresh token for the client (a login session's, an emailed link's), and the digest
    to store instead of it."""
    token = secrets.token_urlsafe(_TOKEN_BYTES)
    return token, _sha256(token)


def token_digest(token: object) -> str | None:
    """SHA-256 of a presented token; None when it cannot be one of ours."""
    if not isinstance(token, str) or not token:
        return None
    if len(token) > _MAX_TOKEN_LENGTH or not token.isascii():
        return None
    return _sha256(token)


def marked(token: object) -> str:
    """What the screens receive instead of a presented token: its digest, sealed with the
    server's key so that a digest read from the database (a backup, a replica) cannot be
    passed off as one; "" for anything that cannot be a token of ours."""
    return sealed(token_digest(token))


def sealed(digest: str | None) -> str:
    """`marked` for a caller that already has the digest (a login token's session id)."""
    return f"{DIGEST_PREFIX}{digest}.{_seal(digest)}" if digest else ""


def marked_digest(value: object) -> str | None:
    """The digest in a value made by `marked`; None for anything else: a raw token, a bare
    or re-sealed digest."""
    if not isinstance(value, str) or not value.startswith(DIGEST_PREFIX):
        return None
    digest, _, seal = value.removeprefix(DIGEST_PREFIX).partition(".")
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        return None
    return digest if hmac.compare_digest(seal, _seal(digest)) else None


def digest_in_path(path: str) -> str | None:
    """The digest sealed in a token page's path (its last segment: a reset, invitation,
    verification or manage link) by the time an event reaches a screen's state
    (rcxsite/web/sealed_event_paths.py); None for anything else."""
    return marked_digest(path.rstrip("/").rsplit("/", 1)[-1])


def _seal(digest: str) -> str:
    return keyed_hash("token-digest:" + digest)[:32]


def _sha256(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()
