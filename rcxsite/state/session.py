"""The customer's session as the browser keeps it (spec §3, §4, §9).

Two entries, both named `userSession`: a cookie with the login (30 days) and a header
entry in session storage, `{value, expiry}`, that lapses after ten minutes without a
route change. Signed in means both: a live header entry AND a login token the accounts
service still accepts, so the header and the login page can never disagree.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

import reflex as rx

from rcxsite import accounts, routes
from rcxsite.settings import get_settings

logger = logging.getLogger(__name__)

SESSION_KEY = "userSession"
REDIRECT_DELAY_S = 1.5
_settings = get_settings()


def _json_object(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


class SessionState(rx.State):
    header_entry: str = rx.SessionStorage("", name=SESSION_KEY)
    login_cookie: str = rx.Cookie(
        "",
        name=SESSION_KEY,
        path="/",
        max_age=_settings.login_token_days * 24 * 3600,
        same_site="lax",
        secure=_settings.secure_cookies,
    )
    signed_in: bool = False

    def _saved_login(self) -> dict[str, Any]:
        """The login cookie's fields: EmailAddress, UserName, Token, CustomerId."""
        return _json_object(self.login_cookie)

    def _entry_is_live(self) -> bool:
        """Reading an expired header entry removes it."""
        entry = _json_object(self.header_entry)
        if not entry:
            return False
        expiry = entry.get("expiry")
        if isinstance(expiry, int | float) and expiry > time.time() * 1000:
            return True
        self.header_entry = ""
        return False

    def _extend_entry(self, value: str) -> None:
        lifetime_ms = _settings.header_session_minutes * 60 * 1000
        self.header_entry = json.dumps(
            {"value": value, "expiry": int(time.time() * 1000 + lifetime_ms)}
        )

    async def _is_signed_in(self) -> bool:
        if not self._entry_is_live():
            return False
        token = str(self._saved_login().get("Token", ""))
        try:
            customer_id = await asyncio.to_thread(accounts.verify_login_token, token)
        except Exception:
            logger.exception("could not verify a login token")
            return False
        if customer_id is None:
            # Revoked (password reset), expired or tampered: sign this browser out entirely.
            self._forget()
            return False
        return True

    def _start_session(self, login: accounts.LoginResult) -> None:
        self.login_cookie = json.dumps(
            {
                "EmailAddress": login.email_address,
                "UserName": login.user_name,
                "Token": login.token,
                "CustomerId": login.customer_id,
            }
        )
        self._extend_entry(login.email_address)
        self.signed_in = True

    def _forget(self) -> None:
        self.header_entry = ""
        self.login_cookie = ""
        self.signed_in = False

    @rx.event
    async def check(self) -> None:
        """Runs on every route change (every page's on_load)."""
        self.signed_in = await self._is_signed_in()
        if self.signed_in:
            self._extend_entry(str(self._saved_login().get("EmailAddress", "")))

    @rx.event
    def log_out(self) -> list[rx.event.EventSpec]:
        self._forget()
        return [
            rx.remove_session_storage(SESSION_KEY),
            rx.remove_cookie(SESSION_KEY, {"path": "/"}),
            rx.redirect(routes.HOME.path),
        ]

    @rx.event(background=True)
    async def redirect_later(self, path: str):
        """Leaves the confirmation on screen for a moment before moving on (spec §9)."""
        await asyncio.sleep(REDIRECT_DELAY_S)
        yield rx.redirect(path)
