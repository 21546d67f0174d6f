"""Two-factor sign-in: authenticator codes (TOTP, RFC 6238) and single-use recovery codes.

A code is accepted once: the member's last accepted 30-second time step is stored, and a
code of that step or an earlier one is refused, so a code seen over a shoulder or in a
proxy log cannot be replayed inside its window. Recovery codes are stored as SHA-256
digests only (ten random codes of 60 bits each need no slow hash) and each one is struck
out when used.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import time

import pyotp
import segno

from rcxsite.platform.at_rest import SealBroken, seal, unseal
from rcxsite.platform.settings import get_settings

logger = logging.getLogger(__name__)

CODE_DIGITS = 6
STEP_SECONDS = 30
# One step either side: a phone clock a little off still signs in.
VALID_WINDOW = 1
RECOVERY_CODE_COUNT = 10
# Letters and digits that cannot be mistaken for each other when read aloud or copied.
_RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
_RECOVERY_GROUPS, _RECOVERY_GROUP_LENGTH = 3, 4


_AT_REST = "totp-secret"


def new_secret() -> str:
    return pyotp.random_base32()


def sealed_secret(secret: str) -> str:
    """The key as stored: sealed, so a copy of the database alone yields no codes."""
    return seal(_AT_REST, secret)


def open_secret(stored: str) -> str:
    """The key of a stored value; "" (no code matches) when it cannot be opened."""
    try:
        return unseal(_AT_REST, stored)
    except SealBroken:
        # A key sealed under another server secret: the member must be enrolled again.
        logger.error("a stored authenticator key cannot be opened with this server's secret")
        return ""


def provisioning_uri(secret: str, *, email: str) -> str:
    return pyotp.TOTP(secret).provisioning_uri(
        name=email, issuer_name=f"{get_settings().company_name} staff"
    )


def qr_svg(uri: str) -> str:
    """The enrolment QR code as inline SVG, made here: the key goes to no third party."""
    return str(
        segno.make(uri, error="m").svg_inline(scale=5, border=2, dark="#0f172a", light="#ffffff")
    )


def grouped_secret(secret: str) -> str:
    """The key as people type it into an app: groups of four."""
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def accepted_step(
    secret: str, code: str, *, last_step: int, now: float | None = None
) -> int | None:
    """The time step a correct, unused code belongs to; None for anything else."""
    code = code.strip().replace(" ", "")
    if not secret or len(code) != CODE_DIGITS or not code.isdigit():
        return None
    totp = pyotp.TOTP(secret)
    current = int((time.time() if now is None else now) // STEP_SECONDS)
    for step in range(current - VALID_WINDOW, current + VALID_WINDOW + 1):
        if step > last_step and hmac.compare_digest(totp.generate_otp(step), code):
            return step
    return None


def current_code(secret: str, *, now: float | None = None) -> str:
    """The code an authenticator app shows now (the CLI's and the tests' side)."""
    return pyotp.TOTP(secret).at(time.time() if now is None else now)


def new_recovery_codes() -> list[str]:
    return [
        "-".join(
            "".join(secrets.choice(_RECOVERY_ALPHABET) for _ in range(_RECOVERY_GROUP_LENGTH))
            for _ in range(_RECOVERY_GROUPS)
        )
        for _ in range(RECOVERY_CODE_COUNT)
    ]


def _normalized_recovery(code: str) -> str:
    return code.strip().lower().replace(" ", "").replace("-", "")


def recovery_digest(code: str) -> str:
    return hashlib.sha256(_normalized_recovery(code).encode()).hexdigest()


def looks_like_recovery_code(code: str) -> bool:
    plain = _normalized_recovery(code)
    return len(plain) == _RECOVERY_GROUPS * _RECOVERY_GROUP_LENGTH and all(
        char in _RECOVERY_ALPHABET for char in plain
    )


def stored_digests(codes: list[str]) -> str:
    return json.dumps([recovery_digest(code) for code in codes])


def strike_out(stored: str, code: str) -> str | None:
    """The stored digests without `code`'s, when it is one of them; None otherwise."""
    try:
        digests = json.loads(stored or "[]")
    except ValueError:
        return None
    if not isinstance(digests, list) or not looks_like_recovery_code(code):
        return None
    wanted = recovery_digest(code)
    match = next(
        (d for d in digests if isinstance(d, str) and hmac.compare_digest(d, wanted)), None
    )
    if match is None:
        return None
    digests.remove(match)
    return json.dumps(digests)


def remaining_codes(stored: str) -> int:
    try:
        digests = json.loads(stored or "[]")
    except ValueError:
        return 0
    return len(digests) if isinstance(digests, list) else 0
