"""Every request and websocket, counted for `/metrics` and named in the log.

A request keeps the `X-Request-ID` its load balancer gave it (a short token), else gets
one; the answer carries it back, and every log line written while answering it names it
(rcxsite/platform/logs.py). A websocket keeps its id for as long as it is open, so a
tab's events are found together. Requests are counted by route template and status,
websockets by how many are open.
"""

from __future__ import annotations

import re
import uuid

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rcxsite.content import routes
from rcxsite.platform.logs import REQUEST_ID
from rcxsite.platform.metrics import OPEN_WEBSOCKETS, REQUESTS

_GIVEN_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")
_PAGES = frozenset(route.path for route in (*routes.ROUTES, *routes.STAFF_ROUTES))
EVENT_PREFIX = "/_event"


def route_label(scope: Scope) -> str:
    """The route a request matched (its template, never a typed path), or its kind."""
    template = getattr(scope.get("route"), "path", "")
    if isinstance(template, str) and template.startswith("/") and template != "/":
        return template
    path = str(scope.get("path", ""))
    if path.startswith(EVENT_PREFIX):
        return "event"
    if path.rstrip("/") in _PAGES or path in _PAGES:
        return "page"
    return "other"


class Observed:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = Headers(scope=scope).get("x-request-id", "")
        request_id = given if _GIVEN_ID.fullmatch(given) else uuid.uuid4().hex
        token = REQUEST_ID.set(request_id)
        try:
            if scope["type"] == "websocket":
                await self._websocket(scope, receive, send)
            else:
                await self._http(scope, receive, send, request_id)
        finally:
            REQUEST_ID.reset(token)

    async def _http(self, scope: Scope, receive: Receive, send: Send, request_id: str) -> None:
        status = 500  # an answer never started is the server's failure

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                MutableHeaders(scope=message)["X-Request-ID"] = request_id
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            REQUESTS.labels(route=route_label(scope), status=str(status)).inc()

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        opened = False

        async def sending(message: Message) -> None:
            nonlocal opened
            if message["type"] == "websocket.accept" and not opened:
                opened = True
                OPEN_WEBSOCKETS.inc()
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            if opened:
                OPEN_WEBSOCKETS.dec()
