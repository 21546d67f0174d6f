"""The staff session cookie, set and removed by HTTP answers so that it is HttpOnly.

As with the customer login (login_cookie.py), a staff sign-in happens over the websocket:
the state hands the page a one-time ticket, which the page posts here at once
(cookie_exchange.py). The answer sets `staffSession` HttpOnly, SameSite=Strict (no other
site can make a browser send it), Secure on https, with no Max-Age: the session row decides
how long it counts. DELETE ends the session and removes the cookie ("Sign out"). Only the
site's own origin may call it.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from rcxsite.core import paths
from rcxsite.platform.settings import get_settings
from rcxsite.staff import sessions
from rcxsite.web.cookie_exchange import CookieExchange, message_answer, read_ticket

STAFF_COOKIE_PATH = paths.STAFF_COOKIE
TICKET_REFUSED = "This sign-in can no longer be completed; please sign in again."


def _cookie_header(value: str, *, remove: bool = False) -> str:
    attributes = "Path=/; HttpOnly; SameSite=Strict"
    if get_settings().secure_cookies:
        attributes += "; Secure"
    if remove:
        attributes += "; Max-Age=0"
    return f"{sessions.COOKIE_NAME}={value}; {attributes}"


class StaffCookieExchange(CookieExchange):
    path = STAFF_COOKIE_PATH

    async def set_cookie(self, request: Request) -> Response:
        token = await run_in_threadpool(sessions.claim_cookie, await read_ticket(request))
        if token is None:
            return message_answer(400, TICKET_REFUSED)
        response = Response(status_code=204)
        response.headers.append("Set-Cookie", _cookie_header(token))
        return response

    async def remove_cookie(self, request: Request) -> Response:
        digest = sessions.session_digest(request.cookies.get(sessions.COOKIE_NAME, ""))
        if digest is not None:
            await run_in_threadpool(sessions.end_session, digest)
        response = Response(status_code=204)
        response.headers.append("Set-Cookie", _cookie_header("", remove=True))
        return response
