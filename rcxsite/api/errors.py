"""Every failure under /api/v1 becomes an envelope: no HTML pages, no stack traces.

The API app also hosts the Reflex backend (mounted under it by `api_transformer`), so the
handlers here leave requests outside /api/v1 to Starlette's default behaviour.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, Response
from starlette.exceptions import HTTPException
from starlette.routing import Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rcxsite.accounts import AccountError
from rcxsite.api.envelope import envelope_response
from rcxsite.forms import FORM_ERROR
from rcxsite.outages import (
    OUTAGE_TYPES,
    RETRY_AFTER_SECONDS,
    UNAVAILABLE_MESSAGE,
    is_outage,
    log_outage,
)

logger = logging.getLogger(__name__)

API_PREFIX = "/api/v1"
MAX_BODY_BYTES = 64 * 1024
_TOO_LARGE = f"The request body is larger than {MAX_BODY_BYTES // 1024} KiB."
_CATCH_ALL = API_PREFIX + "/{path:path}"
_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _is_api(path: str) -> bool:
    return path == API_PREFIX or path.startswith(API_PREFIX + "/")


async def _account_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, AccountError)
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
    # Messages are built from pydantic's wording only: the offending input is never echoed.
    messages: dict[str, str] = {}
    for error in errors:
        field = _field_name(tuple(error.get("loc", ())))
        if error.get("type") == FORM_ERROR:  # written by our input models for people to read
            messages.setdefault(field, error["msg"])
        elif error.get("type") == "missing":
            messages.setdefault(field, f"{field} is required")
        else:
            messages.setdefault(field, f"{field}: {error.get('msg', 'invalid value')}")
    return envelope_response(422, next(iter(messages.values())), {"errors": messages})


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if not _is_api(request.url.path):
        return await http_exception_handler(request, exc)
    return envelope_response(exc.status_code, str(exc.detail), headers=exc.headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    """503 when the database or Redis is unreachable (clients may retry later), else 500;
    the body never carries a trace."""
    if is_outage(exc):
        log_outage(exc, f"{request.method} {request.url.path}")
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        if not _is_api(request.url.path):
            return PlainTextResponse(UNAVAILABLE_MESSAGE, status_code=503, headers=headers)
        return envelope_response(503, UNAVAILABLE_MESSAGE, headers=headers)
    logger.error("Unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    if not _is_api(request.url.path):
        return PlainTextResponse("Internal Server Error", status_code=500)
    return envelope_response(500, "Something went wrong on our side. Please try again later.")


async def _unknown_api_route(request: Request) -> Response:
    """Catches /api/v1 paths no route serves, which would otherwise fall through to Reflex."""
    # Mounts are skipped: the Reflex backend mounted at "" would match every method.
    routes = [
        route
        for route in request.app.router.routes
        if not isinstance(route, Mount) and getattr(route, "path", "") != _CATCH_ALL
    ]
    allowed = [
        method
        for method in _METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL for route in routes
        )
    ]
    if allowed:
        return envelope_response(405, "Method not allowed.", headers={"Allow": ", ".join(allowed)})
    return envelope_response(404, "Not found.")


class BodySizeLimit:
    """Refuses /api/v1 request bodies over `MAX_BODY_BYTES`, declared or streamed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_api(scope["path"]):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and not declared.isdigit():
            await _refuse(400, "The Content-Length header is not a number.", scope, receive, send)
            return
        if declared is not None and int(declared) > MAX_BODY_BYTES:
            await _refuse(413, _TOO_LARGE, scope, receive, send)
            return
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # client went away
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > MAX_BODY_BYTES:
                await _refuse(413, _TOO_LARGE, scope, receive, send)
                return
        replay: list[Message] = [{"type": "http.request", "body": b"".join(chunks)}]

        async def replay_receive() -> Message:
            return replay.pop() if replay else await receive()

        await self.app(scope, replay_receive, send)


async def _refuse(status: int, message: str, scope: Scope, receive: Receive, send: Send) -> None:
    await envelope_response(status, message)(scope, receive, send)


def install_error_handling(app: FastAPI) -> None:
    """Call after all routes are added: the catch-all route must come last."""
    app.add_exception_handler(AccountError, _account_error)
    # Outage types get a handler of their own so that Starlette answers them without
    # re-raising (and logging a trace) as it does for the catch-all `Exception` one.
    for outage in OUTAGE_TYPES:
        app.add_exception_handler(outage, _server_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _server_error)
    app.add_api_route(
        _CATCH_ALL,
        _unknown_api_route,
        methods=list(_METHODS),
        include_in_schema=False,
    )
    app.add_middleware(BodySizeLimit)
