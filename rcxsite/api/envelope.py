"""The {status, message, data} body every /api/v1 answer has; HTTP status equals `status`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from fastapi.responses import JSONResponse
from pydantic import BaseModel

DataT = TypeVar("DataT")


class Envelope(BaseModel, Generic[DataT]):
    status: int
    message: str
    data: DataT | None = None


def envelope_response(
    status: int,
    message: str,
    data: Any = None,
    *,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    return JSONResponse(
        status_code=status,
        content={"status": status, "message": message, "data": data},
        headers=dict(headers) if headers else None,
    )


API_PREFIX = "/api/v1"


def is_api(path: str) -> bool:
    """Whether a path is the API's (answered with envelopes) rather than the site's."""
    return path == API_PREFIX or path.startswith(API_PREFIX + "/")
