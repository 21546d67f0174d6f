"""The one way a service says no: `ServiceError`, raised by every service function.

A service returns its result or raises this with what the caller should show: the HTTP
status the API answers with, the message, per-field messages of a failed validation and,
for a rate limit, the seconds until a retry may succeed. The Reflex screens turn it into
their field and form texts (rcxsite/state/service_calls.py), the API into its envelope
(rcxsite/api/error_handlers.py); neither adapter decides what a refusal says.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType


class ServiceError(Exception):
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
        return f"ServiceError({self.status}, {self.message!r}, retry_after={self.retry_after})"
