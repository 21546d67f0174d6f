"""Keeps the login token out of Reflex's state.

Reflex stores the headers of each tab's websocket handshake in its state, which is pickled
(into Redis when scaled). Before Reflex sees the handshake, the Token of the `userSession`
cookie (a JWT) is replaced by the SHA-256 of the session id it names, sealed and marked
`DIGEST_PREFIX`: enough for the server to find the session, useless to anyone who reads
the stored state. A forged or expired token becomes "". The staff session cookie's token
is sealed the same way (`tokens.marked`).
"""

from __future__ import annotations

import json
import urllib.parse

from starlette.types import ASGIApp, Receive, Scope, Send

from rcxsite.accounts.sessions import COOKIE_NAME, login_digest
from rcxsite.core import tokens
from rcxsite.staff.sessions import COOKIE_NAME as STAFF_COOKIE_NAME
from rcxsite.web.sealed_event_paths import EVENT_PATH


def _digest_only(cookie_header: str) -> str:
    parts = []
    for part in cookie_header.split(";"):
        name, equals, value = part.strip().partition("=")
        if name == STAFF_COOKIE_NAME and equals:
            value = tokens.marked(value)
        elif name == COOKIE_NAME and equals:
            try:
                login = json.loads(urllib.parse.unquote(value))
            except (ValueError, RecursionError):
                login = None
            if isinstance(login, dict):
                login["Token"] = tokens.sealed(login_digest(login.get("Token")))
                value = urllib.parse.quote(json.dumps(login))
        parts.append(f"{name}{equals}{value}")
    return "; ".join(parts)


class LoginTokenDigestForEvents:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("websocket", "http") and scope["path"].startswith(EVENT_PATH):
            headers = [
                (key, _digest_only(value.decode("latin-1")).encode("latin-1"))
                if key == b"cookie"
                else (key, value)
                for key, value in scope["headers"]
            ]
            scope = {**scope, "headers": headers}
        await self.app(scope, receive, send)
