"""The one exception the accounts service raises; callers turn it into a UI or HTTP answer."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType


class AccountError(Exception):
    """A refusal the visitor should see.

    `status` is the HTTP status the REST API answers with, `message` the text to show,
    `retry_after` the seconds until a rate limit lets the caller try again, and
    `fields` the per-field messages of a failed validation.
    """

    def __init__(
        self,
        status: int,
        message: str,
        retry_after: int | None = None,
        *,
        fields: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after
        self.fields: Mapping[str, str] = MappingProxyType(dict(fields or {}))

    def __repr__(self) -> str:
        return f"AccountError({self.status}, {self.message!r}, retry_after={self.retry_after})"
