"""A path that trades a one-time ticket for an HttpOnly cookie, and ends the session again.

A sign-in on the screens happens over the websocket, which cannot set cookies: the state
hands the page a one-time ticket and the page posts it to such a path at once. POST sets
the cookie, DELETE ends the session the cookie names and removes it. Only the site's own
pages may call it (`Origin` must be the first of `allowed_origins`): another website could
otherwise log a visitor into the caller's account (login CSRF). The customer login
(login_cookie.py) and the staff sign-in (staff_cookie.py) are the two.
"""

from __future__ import annotations

import json
from typing import ClassVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from rcxsite.platform.settings import get_settings

# A ticket is 43 characters; the JSON around it fits many times over.
MAX_BODY_BYTES = 1024
FORBIDDEN_ORIGIN = "Only the site's own pages can set its login cookie."


def message_answer(status: int, message: str) -> Response:
    return JSONResponse({"status": status, "message": message}, status_code=status)


async def read_ticket(request: Request) -> object:
    """The `ticket` of a small JSON body; None for anything else."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return None
    try:
        sent = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return sent.get("ticket") if isinstance(sent, dict) else None


class CookieExchange:
    """A path whose POST trades a one-time ticket for a cookie and whose DELETE ends the
    session and removes it, answered for the site's own origin only; the subclass says
    which path and how."""

    path: ClassVar[str]

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def set_cookie(self, request: Request) -> Response:
        raise NotImplementedError

    async def remove_cookie(self, request: Request) -> Response:
        raise NotImplementedError

    async def _answer(self, request: Request) -> Response:
        if request.method not in ("POST", "DELETE"):
            return Response(status_code=405, headers={"Allow": "POST, DELETE"})
        # The site's own origin only: CORS_EXTRA_ORIGINS may call the API, not hold the cookie.
        if request.headers.get("origin") != get_settings().allowed_origins[0]:
            return message_answer(403, FORBIDDEN_ORIGIN)
        if request.method == "POST":
            return await self.set_cookie(request)
        return await self.remove_cookie(request)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != self.path:
            await self.app(scope, receive, send)
            return
        response = await self._answer(Request(scope, receive))
        response.headers["Cache-Control"] = "no-store"
        await response(scope, receive, send)
