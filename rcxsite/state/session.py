"""The customer's session as the browser keeps it (spec §3, §4, §9).

Two entries, both named `userSession`: a cookie with the login (EmailAddress, UserName,
Token, CustomerId; 30 days) and a header entry in session storage, `{value, expiry}`.
Whether someone is signed in is decided on the server only: the cookie's Token must name
a live session (rcxsite.accounts.sessions), the rule the REST API applies too.

The token never sits in state, which is pickled (into Redis when scaled): the cookie is
written by a script at login; Reflex keeps the websocket handshake's headers in state, so
the Cookie header's Token is swapped for its SHA-256 before Reflex sees it
(rcxsite/api/session_cookie.py). The server can find the session by that digest, but
nobody can present it as a token. The reset token, which the spec puts in the page's path,
is swapped the same way in every event's router data (rcxsite/api/reset_link_events.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import urllib.parse
from typing import Any

import reflex as rx

from rcxsite import accounts, routes
from rcxsite.accounts import sessions, tokens
from rcxsite.settings import get_settings

logger = logging.getLogger(__name__)

SESSION_KEY = sessions.COOKIE_NAME
REDIRECT_DELAY_S = 1.5
_settings = get_settings()


def _json_object(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def cookie_value(cookie_header: str, name: str = SESSION_KEY) -> str:
    """The decoded value of one cookie in a Cookie request header ("" when absent)."""
    for part in cookie_header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return urllib.parse.unquote(value)
    return ""


def _set_cookie_script(value: str) -> str:
    attributes = f"; path=/; max-age={_settings.login_token_days * 24 * 3600}; samesite=lax"
    if _settings.secure_cookies:
        attributes += "; secure"
    return (
        f"document.cookie = {json.dumps(SESSION_KEY)} + '=' + "
        f"encodeURIComponent({json.dumps(value)}) + {json.dumps(attributes)}"
    )


# Reflex's own remove_cookie / remove_session_storage events make the tab hydrate again,
# which reruns the page's on_load; a page that stays after ending a session (My account)
# must not be sent to the login page by that, so the browser forgets it by script.
_FORGET_LOGIN_SCRIPT = (
    f"document.cookie = {json.dumps(SESSION_KEY)} + '=; path=/; max-age=0; samesite=lax'; "
    f"try {{ window.sessionStorage.removeItem({json.dumps(SESSION_KEY)}); }} catch (e) {{}}"
)


def _handshake_digest(login: dict[str, Any]) -> str | None:
    return tokens.marked_digest(login.get("Token"))


class SessionState(rx.State):
    header_entry: str = rx.SessionStorage("", name=SESSION_KEY)
    signed_in: bool = False
    # Backend-only: SHA-256 of the token of a login made on this connection.
    _session_digest: str = ""
    # Set by logout: the digest of the cookie this tab removed, which its handshake headers
    # still show until it reconnects (a newer login's cookie is not ignored).
    _removed_digest: str = ""

    def _handshake_login(self) -> dict[str, Any]:
        return _json_object(cookie_value(self.router.headers.cookie))

    def _saved_login(self) -> dict[str, Any]:
        """The login cookie's fields as this tab's handshake carried them. Its Token is
        already the digest (rcxsite/api/session_cookie.py)."""
        login = self._handshake_login()
        if self._removed_digest and _handshake_digest(login) == self._removed_digest:
            return {}
        return login

    def _current_digest(self) -> str | None:
        if self._session_digest:
            return self._session_digest
        return _handshake_digest(self._saved_login())

    def _extend_entry(self, value: str) -> None:
        lifetime_ms = _settings.header_session_minutes * 60 * 1000
        self.header_entry = json.dumps(
            {"value": value, "expiry": int(time.time() * 1000 + lifetime_ms)}
        )

    async def _signed_in_customer(self) -> int | None:
        """The one rule of the header, the login page and My account: the customer of a
        live server-side session, or None."""
        digest = self._current_digest()
        if digest is None:
            return None
        try:
            customer_id = await asyncio.to_thread(sessions.digest_customer, digest)
        except Exception:
            logger.exception("could not check a login session")
            return None
        if customer_id is None:
            # Logged out, idle, too old or revoked by a password reset.
            self._session_digest = ""
            self.header_entry = ""
            return None
        # The server just counted this as activity; the header entry lives exactly as long.
        value = _json_object(self.header_entry).get("value")
        self._extend_entry(str(value or self._saved_login().get("EmailAddress", "")))
        return customer_id

    async def _is_signed_in(self) -> bool:
        return await self._signed_in_customer() is not None

    def _forget_login(self) -> list[rx.event.EventSpec]:
        """This tab's part of ending a session: the events that make the browser forget it."""
        self._removed_digest = _handshake_digest(self._handshake_login()) or ""
        self._session_digest = ""
        self.header_entry = ""
        return [rx.call_script(_FORGET_LOGIN_SCRIPT)]

    def _start_session(self, login: accounts.LoginResult) -> rx.event.EventSpec:
        """Remember the login; returns the event that writes the cookie in the browser."""
        self._session_digest = tokens.token_digest(login.token) or ""
        self._extend_entry(login.email_address)
        self.signed_in = True
        return rx.call_script(
            _set_cookie_script(
                json.dumps(
                    {
                        "EmailAddress": login.email_address,
                        "UserName": login.user_name,
                        "Token": login.token,
                        "CustomerId": login.customer_id,
                    }
                )
            )
        )

    @rx.event
    async def check(self) -> None:
        """Runs on every route change (every page's on_load)."""
        self.signed_in = await self._is_signed_in()

    @rx.event
    async def log_out(self):
        digest = self._current_digest()
        if digest is not None:
            try:
                await asyncio.to_thread(sessions.end_digest_session, digest)
            except Exception:
                logger.exception("could not revoke a login session")
        # The browser forgets the login before the header says "Log in".
        yield self._forget_login()
        self.signed_in = False
        yield rx.redirect(routes.HOME.path)

    @rx.event(background=True)
    async def redirect_later(self, path: str):
        """Leaves the confirmation on screen for a moment before moving on (spec §9)."""
        await asyncio.sleep(REDIRECT_DELAY_S)
        yield rx.redirect(path)
