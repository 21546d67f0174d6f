"""The customer's session as the browser keeps it.

Two entries, both named `userSession`: a cookie with the login (EmailAddress, UserName,
Token, CustomerId; 30 days) and a header entry in session storage, `{value, expiry}`.
Whether someone is signed in is decided on the server only: the cookie's Token must name
a live session (rcxsite.accounts.sessions), the rule the REST API applies too.

The token never sits in state, which is pickled (into Redis when scaled), nor in reach of
page scripts: the cookie is HttpOnly, set by an HTTP answer for which the page trades a
one-time ticket right after the login (rcxsite/web/login_cookie.py). Reflex keeps the
websocket handshake's headers in state, so the Cookie header's Token is swapped for a
sealed digest before Reflex sees it (rcxsite/web/sealed_event_cookies.py). The server can find
the session by that digest, but nobody can present it as a token. The reset token, which
the reset link carries in the page's path, is swapped the same way in every event's router
data (rcxsite/web/sealed_event_paths.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import urllib.parse
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from rcxsite.accounts import sessions
from rcxsite.content import routes
from rcxsite.core import paths, tokens
from rcxsite.platform.settings import get_settings
from rcxsite.state.stored_data import holds_data

logger = logging.getLogger(__name__)

SESSION_KEY = sessions.COOKIE_NAME
REDIRECT_DELAY_S = 1.5
_settings = get_settings()


def _json_object(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw) if raw else {}
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def cookie_value(cookie_header: str, name: str = SESSION_KEY) -> str:
    """The decoded value of one cookie in a Cookie request header ("" when absent)."""
    for part in cookie_header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return urllib.parse.unquote(value)
    return ""


def _claim_cookie_script(ticket: str) -> str:
    # The ticket works once and for a minute; the answer sets the HttpOnly cookie.
    body = json.dumps(json.dumps({"ticket": ticket}))
    return (
        f"fetch({json.dumps(paths.LOGIN_COOKIE)}, {{method: 'POST', credentials: 'same-origin', "
        f"headers: {{'Content-Type': 'application/json'}}, body: {body}}}).catch(() => null)"
    )


# Reflex's own remove_cookie / remove_session_storage events make the tab hydrate again,
# which reruns the page's on_load; a page that stays after ending a session (My account)
# must not be sent to the login page by that, so the browser forgets it by script. The
# cookie is HttpOnly: only an HTTP answer can remove it.
_FORGET_LOGIN_SCRIPT = (
    f"fetch({json.dumps(paths.LOGIN_COOKIE)}, {{method: 'DELETE', credentials: 'same-origin'}})"
    ".catch(() => null); "
    f"try {{ window.sessionStorage.removeItem({json.dumps(SESSION_KEY)}); }} catch (e) {{}}"
)


def _handshake_digest(login: dict[str, Any]) -> str | None:
    return tokens.marked_digest(login.get("Token"))


def _personal_data_states() -> list[type[SessionState]]:
    """The states below SessionState that hold a customer's data (they say how to forget
    it)."""
    found: list[type[SessionState]] = []
    pending = list(SessionState.get_substates())
    while pending:
        substate = pending.pop()
        pending.extend(substate.get_substates())
        # Every substate of SessionState is a subclass of it; issubclass tells mypy so.
        if "_forget_personal_data" in vars(substate) and issubclass(substate, SessionState):
            found.append(substate)
    return found


class SessionState(rx.State):
    header_entry: str = rx.SessionStorage("", name=SESSION_KEY)
    signed_in: bool = False
    # Backend-only: the digest of a session started on this tab (a login, a password
    # change) and the websocket connection it was started on. The browser's cookie may
    # not have reached this connection's handshake yet; any other connection (a reconnect,
    # or whoever presents this tab's Reflex token later) is judged by its own cookie only.
    _session_digest: str = ""
    _session_connection: str = ""
    # Set by logout: the digest of the cookie this tab removed, which its handshake headers
    # still show until it reconnects (a newer login's cookie is not ignored).
    _removed_digest: str = ""
    # The customer whose data this tab's states hold (0: nobody's).
    _data_for: int = 0
    _checked_connection: str = ""

    def _handshake_login(self) -> dict[str, Any]:
        return _json_object(cookie_value(self.router.headers.cookie))

    def _saved_login(self) -> dict[str, Any]:
        """The login cookie's fields as this tab's handshake carried them. Its Token is
        already the digest (rcxsite/web/sealed_event_cookies.py)."""
        login = self._handshake_login()
        if self._removed_digest and _handshake_digest(login) == self._removed_digest:
            return {}
        return login

    def _current_digest(self) -> str | None:
        if self._session_digest and self._session_connection == self.router.session.session_id:
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
            # Logged out, idle, too old or revoked (a reset, a change, sign out everywhere
            # elsewhere): nothing of the customer stays in this tab's stored state either.
            self._session_digest = self._session_connection = ""
            self.header_entry = ""
            await self._forget_everyones_personal_data()
            return None
        # The server just counted this as activity; the header entry lives exactly as long.
        value = _json_object(self.header_entry).get("value")
        self._extend_entry(str(value or self._saved_login().get("EmailAddress", "")))
        return customer_id

    async def _is_signed_in(self) -> bool:
        return await self._signed_in_customer() is not None

    def _forget_login(self) -> list[EventSpec]:
        """This tab's part of ending a session: the events that make the browser forget it."""
        self._removed_digest = _handshake_digest(self._handshake_login()) or ""
        self._session_digest = self._session_connection = ""
        self.header_entry = ""
        return [rx.call_script(_FORGET_LOGIN_SCRIPT)]

    def _start_session(self, *, digest: str, cookie_ticket: str, email: str) -> EventSpec:
        """Remember a session started on this tab; returns the event with which the browser
        trades its ticket for the login cookie."""
        self._session_digest, self._session_connection = digest, self.router.session.session_id
        self._removed_digest = ""
        self._extend_entry(email)
        self.signed_in = True
        return rx.call_script(_claim_cookie_script(cookie_ticket))

    @rx.event
    async def check(self) -> None:
        """Runs on every route change (every page's on_load)."""
        self.signed_in = await self._is_signed_in()

    def _forget_personal_data(self) -> None:
        """Overridden by the states that show a customer's data: called at logout, so that
        the stored state keeps nothing of them."""

    async def _forget_unless_owner(self) -> None:
        """Before this tab's state is sent to a new connection (rcxsite/state/stored_data.py):
        only the customer it was loaded for, by this connection's own cookie, gets it; with
        nobody recorded (never loaded, or the record lapsed first), no state keeps any."""
        if not self._data_for:
            for substate in _personal_data_states():
                held = await self.get_state(substate)
                if holds_data(held):
                    held._forget_personal_data()
            return
        digest = self._current_digest()
        customer_id = (
            None if digest is None else await asyncio.to_thread(sessions.digest_customer, digest)
        )
        if customer_id != self._data_for:
            await self._forget_stored_data()

    async def _forget_stored_data(self) -> None:
        self.header_entry = ""
        await self._forget_everyones_personal_data()

    async def _forget_everyones_personal_data(self) -> None:
        self._data_for = 0
        for substate in _personal_data_states():
            (await self.get_state(substate))._forget_personal_data()

    @rx.event
    async def log_out(self):
        digest = self._current_digest()
        if digest is not None:
            try:
                await asyncio.to_thread(sessions.end_digest_session, digest)
            except Exception:
                logger.exception("could not revoke a login session")
        # The cookie counts as removed before the states forget: what a state may keep of
        # this connection's own login cookie (the login form's address) goes with it.
        forget_login = self._forget_login()
        await self._forget_everyones_personal_data()
        # The browser forgets the login before the header says "Log in".
        yield forget_login
        self.signed_in = False
        yield rx.redirect(routes.HOME.path)

    @rx.event(background=True)
    async def redirect_later(self, path: str):
        """Leaves the confirmation on screen for REDIRECT_DELAY_S before moving on."""
        await asyncio.sleep(REDIRECT_DELAY_S)
        yield rx.redirect(path)
