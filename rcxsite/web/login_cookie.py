"""The login cookie, set and removed by HTTP answers so that it is HttpOnly.

A login on the screens happens over the websocket, which cannot set cookies. The state
hands the page a one-time ticket (rcxsite.accounts.sessions.claim_cookie) and the page
posts it here at once (cookie_exchange.py); the answer sets `userSession` (the fields
existing clients read: EmailAddress, UserName, Token, CustomerId) HttpOnly, SameSite=Lax,
Secure on https, so no script can read the Token. DELETE ends the session the cookie names
and removes the cookie (logout).

Only the site's own pages may call it (`Origin` must be one of `allowed_origins`): another
website could otherwise log a visitor into the caller's account (login CSRF).
"""

from __future__ import annotations

import json
import urllib.parse

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from rcxsite.accounts import sessions
from rcxsite.core import paths
from rcxsite.platform.settings import get_settings
from rcxsite.web.cookie_exchange import CookieExchange, message_answer, read_ticket

LOGIN_COOKIE_PATH = paths.LOGIN_COOKIE
TICKET_REFUSED = "This login can no longer be completed; please log in again."


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


def cookie_json(login: sessions.ClaimedLogin) -> str:
    """The login cookie's value before URL-quoting, its fields named as existing clients
    read them."""
    return json.dumps(
        {
            "EmailAddress": login.email_address,
            "UserName": login.user_name,
            "Token": login.token,
            "CustomerId": login.customer_id,
        }
    )


def cookie_token(request: Request) -> str:
    """The Token of the login cookie a request carries ("" when none)."""
    try:
        login = json.loads(urllib.parse.unquote(request.cookies.get(sessions.COOKIE_NAME, "")))
    except (ValueError, RecursionError):  # deeply nested JSON ends in RecursionError
        return ""
    token = login.get("Token") if isinstance(login, dict) else None
    return token if isinstance(token, str) else ""


async def _set_cookie(request: Request) -> Response:
    claimed = await run_in_threadpool(sessions.claim_cookie, await read_ticket(request))
    if claimed is None:
        return message_answer(400, TICKET_REFUSED)
    value = cookie_json(claimed)
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


class LoginCookieExchange(CookieExchange):
    path = LOGIN_COOKIE_PATH

    async def set_cookie(self, request: Request) -> Response:
        return await _set_cookie(request)

    async def remove_cookie(self, request: Request) -> Response:
        return await _remove_cookie(request)
