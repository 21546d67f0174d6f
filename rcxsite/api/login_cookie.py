"""The login cookie, set and removed by HTTP answers so that it is HttpOnly.

A login on the screens happens over the websocket, which cannot set cookies. The state
hands the page a one-time ticket (rcxsite.accounts.sessions.claim_cookie) and the page
posts it here at once; the answer sets `userSession` (spec §3: EmailAddress, UserName,
Token, CustomerId) HttpOnly, SameSite=Lax, Secure on https, so no script can read the
Token. DELETE ends the session the cookie names and removes the cookie (logout).

Only the site's own pages may call it (`Origin` must be one of `allowed_origins`): another
website could otherwise log a visitor into the caller's account (login CSRF).
"""

from __future__ import annotations

import json
import urllib.parse
from typing import ClassVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from rcxsite.accounts import sessions
from rcxsite.settings import get_settings

LOGIN_COOKIE_PATH = "/_login_cookie"
# A ticket is 43 characters; the JSON around it fits many times over.
MAX_BODY_BYTES = 1024
TICKET_REFUSED = "This login can no longer be completed; please log in again."
FORBIDDEN_ORIGIN = "Only the site's own pages can set its login cookie."


# Script-readable and secret-free ("1"), it lives as long as the login cookie: the page's
# header asks the server about the session only while it exists (components_js/SiteEffects).
HINT_COOKIE_NAME = "userSessionActive"


def _cookie_headers(value: str, *, max_age: int) -> list[str]:
    attributes = f"Path=/; Max-Age={max_age}; SameSite=Lax"
    if get_settings().secure_cookies:
        attributes += "; Secure"
    hint = "1" if value else ""
    return [
        f"{sessions.COOKIE_NAME}={urllib.parse.quote(value)}; {attributes}; HttpOnly",
        f"{HINT_COOKIE_NAME}={hint}; {attributes}",
    ]


def cookie_token(request: Request) -> str:
    """The Token of the login cookie a request carries ("" when none)."""
    try:
        login = json.loads(urllib.parse.unquote(request.cookies.get(sessions.COOKIE_NAME, "")))
    except (ValueError, RecursionError):  # deeply nested JSON ends in RecursionError
        return ""
    token = login.get("Token") if isinstance(login, dict) else None
    return token if isinstance(token, str) else ""


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


async def _set_cookie(request: Request) -> Response:
    claimed = await run_in_threadpool(sessions.claim_cookie, await read_ticket(request))
    if claimed is None:
        return message_answer(400, TICKET_REFUSED)
    value = json.dumps({
        "EmailAddress": claimed.email_address,
        "UserName": claimed.user_name,
        "Token": claimed.token,
        "CustomerId": claimed.customer_id,
    })
    response = Response(status_code=204)
    max_age = get_settings().login_token_days * 24 * 3600
    for header in _cookie_headers(value, max_age=max_age):
        response.headers.append("Set-Cookie", header)
    return response


async def _remove_cookie(request: Request) -> Response:
    token = cookie_token(request)
    if token:
        await run_in_threadpool(sessions.end_session, token)
    response = Response(status_code=204)
    for header in _cookie_headers("", max_age=0):
        response.headers.append("Set-Cookie", header)
    return response


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


class LoginCookieExchange(CookieExchange):
    path = LOGIN_COOKIE_PATH

    async def set_cookie(self, request: Request) -> Response:
        return await _set_cookie(request)

    async def remove_cookie(self, request: Request) -> Response:
        return await _remove_cookie(request)
