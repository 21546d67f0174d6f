"""The /api/v1 routers; each route only translates between HTTP and rcxsite.accounts."""

from __future__ import annotations

from typing import Any

from rcxsite.api.envelope import Envelope
from rcxsite.api.schemas import FieldErrors

_DESCRIPTIONS = {
    400: "Malformed request, or an unusable reset link",
    401: "Unknown email or wrong password (one answer for both)",
    413: "Request body over 64 KiB",
    422: "A field is missing or breaks a validation rule; data.errors lists them",
    429: "Rate limit reached; the message and Retry-After say when to try again",
    503: "The database or Redis is unreachable; retry after Retry-After seconds",
}


SIGNED_IN_ONLY = {401: "No live session: the bearer token is missing, ended or lapsed"}


def error_responses(
    *codes: int, descriptions: dict[int, str] | None = None
) -> dict[int | str, dict[str, Any]]:
    """OpenAPI descriptions of the error envelopes a route can answer with."""
    described = _DESCRIPTIONS | (descriptions or {})
    return {
        code: {
            "model": Envelope[FieldErrors] if code in (400, 422) else Envelope[None],
            "description": described[code],
        }
        for code in (400, 413, 422, *codes, 503)
    }
