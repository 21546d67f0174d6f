"""Every failure under /api/v1 becomes an envelope: no HTML pages, no stack traces.

A service's `ServiceError` is answered by one handler, with its status, message, field
messages and Retry-After. The API app also hosts the Reflex backend (mounted under it by
`api_transformer`), so the handlers leave requests outside /api/v1 to Starlette's default
behaviour.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, Response
from starlette.exceptions import HTTPException

from rcxsite.api.envelope import envelope_response, is_api
from rcxsite.api.unknown_routes import add_catch_all
from rcxsite.core.forms import messages_by_field
from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.outages import (
    OUTAGE_TYPES,
    RETRY_AFTER_SECONDS,
    UNAVAILABLE_MESSAGE,
    is_outage,
    log_outage,
)

logger = logging.getLogger(__name__)


async def _service_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ServiceError)
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    data = {"errors": dict(exc.fields)} if exc.fields else None
    return envelope_response(exc.status, exc.message, data, headers=headers)


def _field_name(loc: tuple[Any, ...]) -> str:
    parts = [str(part) for part in loc[1:]]  # loc[0] is "body" / "query"
    return ".".join(parts) or ("request body" if loc and loc[0] == "body" else "request")


async def _validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    if not errors:
        return envelope_response(422, "The request is not valid.")
    first = errors[0]
    kind, loc = first.get("type", ""), tuple(first.get("loc", ()))
    if kind == "json_invalid":
        return envelope_response(400, "The request body is not valid JSON.")
    if loc in (("body",), ()):
        if kind == "missing":
            return envelope_response(400, "A JSON request body is required.")
        return envelope_response(
            400, "The request body must be a JSON object sent as application/json."
        )
    messages = messages_by_field(errors, _field_name)
    return envelope_response(422, next(iter(messages.values())), {"errors": messages})


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if not is_api(request.url.path):
        return await http_exception_handler(request, exc)
    return envelope_response(exc.status_code, str(exc.detail), headers=exc.headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    """503 when the database or Redis is unreachable (clients may retry later), else 500;
    the body never carries a trace."""
    if is_outage(exc):
        log_outage(exc, f"{request.method} {request.url.path}")
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        if not is_api(request.url.path):
            return PlainTextResponse(UNAVAILABLE_MESSAGE, status_code=503, headers=headers)
        return envelope_response(503, UNAVAILABLE_MESSAGE, headers=headers)
    logger.error("Unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    if not is_api(request.url.path):
        return PlainTextResponse("Internal Server Error", status_code=500)
    return envelope_response(500, "Something went wrong on our side. Please try again later.")


def install_error_handling(app: FastAPI) -> None:
    """Call after all routes are added: the catch-all route must come last."""
    app.add_exception_handler(ServiceError, _service_error)
    # Outage types get a handler of their own so that Starlette answers them without
    # re-raising (and logging a trace) as it does for the catch-all `Exception` one.
    for outage in OUTAGE_TYPES:
        app.add_exception_handler(outage, _server_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _server_error)
    add_catch_all(app)
