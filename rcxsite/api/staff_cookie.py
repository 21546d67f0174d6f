"""The staff session cookie, set and removed by HTTP answers so that it is HttpOnly.

As with the customer login (rcxsite/api/login_cookie.py), a staff sign-in happens over the
websocket: the state hands the page a one-time ticket, which the page posts here at once.
The answer sets `staffSession` HttpOnly, SameSite=Strict (no other site can make a
browser send it), Secure on https, with no Max-Age: the session row decides how long it
counts. DELETE ends the session and removes the cookie ("Sign out"). Only the site's own
origin may call it.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from rcxsite.api.login_cookie import FORBIDDEN_ORIGIN, message_answer, read_ticket
from rcxsite.settings import get_settings
from rcxsite.staff import sessions

STAFF_COOKIE_PATH = "/_staff_cookie"
TICKET_REFUSED = "This sign-in can no longer be completed; please sign in again."


def _cookie_header(value: str, *, remove: bool = False) -> str:
    attributes = "Path=/; HttpOnly; SameSite=Strict"
    if get_settings().secure_cookies:
        attributes += "; Secure"
    if remove:
        attributes += "; Max-Age=0"
    return f"{sessions.COOKIE_NAME}={value}; {attributes}"


async def _answer(request: Request) -> Response:
    if request.method not in ("POST", "DELETE"):
        return Response(status_code=405, headers={"Allow": "POST, DELETE"})
    if request.headers.get("origin") != get_settings().allowed_origins[0]:
        return message_answer(403, FORBIDDEN_ORIGIN)
    if request.method == "POST":
        token = await run_in_threadpool(sessions.claim_cookie, await read_ticket(request))
        if token is None:
            return message_answer(400, TICKET_REFUSED)
        response = Response(status_code=204)
        response.headers.append("Set-Cookie", _cookie_header(token))
        return response
    digest = sessions.session_digest(request.cookies.get(sessions.COOKIE_NAME, ""))
    if digest is not None:
        await run_in_threadpool(sessions.end_session, digest)
    response = Response(status_code=204)
    response.headers.append("Set-Cookie", _cookie_header("", remove=True))
    return response


class StaffCookieExchange:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != STAFF_COOKIE_PATH:
            await self.app(scope, receive, send)
            return
        response = await _answer(Request(scope, receive))
        response.headers["Cache-Control"] = "no-store"
        await response(scope, receive, send)
