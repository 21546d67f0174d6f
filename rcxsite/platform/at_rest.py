"""Secrets the server must read back (authenticator keys) encrypted at rest.

A copy of the database alone (a backup, a replica, a leaked dump) must not yield them: they
are sealed with AES-256-GCM under a key derived from the server secret, which lives apart
from the database (`SECRET_KEY`, or the data folder's key file). Each value names its
purpose as associated data, so a sealed value cannot be moved to another kind of field.
"""

from __future__ import annotations

import base64
import os
from functools import lru_cache

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from rcxsite.platform.settings import get_settings

PREFIX = "v1:"
_NONCE_BYTES = 12


class SealBroken(ValueError):
    """A stored value that is not ours, or was sealed under another server secret."""


@lru_cache(maxsize=4)
def _cipher(signing_key: str) -> AESGCM:
    key = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=None, info=b"rcxsite secrets at rest v1"
    ).derive(signing_key.encode())
    return AESGCM(key)


def seal(purpose: str, plain: str, *, signing_key: str | None = None) -> str:
    """`plain` encrypted for storage ("" stays "")."""
    if not plain:
        return ""
    nonce = os.urandom(_NONCE_BYTES)
    key = signing_key or get_settings().signing_key()
    sealed = _cipher(key).encrypt(nonce, plain.encode(), purpose.encode())
    return PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode("ascii")


def unseal(purpose: str, stored: str, *, signing_key: str | None = None) -> str:
    """The plain value of `seal`'s result ("" stays ""); raises SealBroken otherwise."""
    if not stored:
        return ""
    if not stored.startswith(PREFIX):
        raise SealBroken("not a sealed value")
    try:
        raw = base64.urlsafe_b64decode(stored.removeprefix(PREFIX).encode("ascii"))
        key = signing_key or get_settings().signing_key()
        return (
            _cipher(key).decrypt(raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], purpose.encode()).decode()
        )
    except (InvalidTag, ValueError, UnicodeError) as error:
        raise SealBroken("the value cannot be opened with this server's secret") from error
