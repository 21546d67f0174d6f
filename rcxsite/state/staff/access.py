"""Who is asking: the one check in front of every staff event handler.

A client can send any public event of any state, whatever the page shows, so each
handler is wrapped by `staff_event(permission)`: the member is resolved from the
`staffSession` cookie of the connection (or a sign-in made on this very connection), the
session is marked used, and the permission checked, before the handler runs. Signed-out
visitors are sent to the sign-in page; a member without the permission is shown
`NO_ACCESS` and nothing else. The acting member is handed to the handler through
`acting()`. `STAFF_HANDLERS` lists every wrapped handler with its permission, so a test
can find any public handler of a staff state that has no rule.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import logging
import urllib.parse
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from typing import Any, TypeVar

import reflex as rx
from reflex.event import EventSpec
from reflex.state import BaseState

from rcxsite.content import routes
from rcxsite.core import paths, tokens
from rcxsite.core.permissions import GRANTS, NO_ACCESS, Permission, StaffActor, allowed
from rcxsite.staff import sessions
from rcxsite.state.session import cookie_value
from rcxsite.state.stored_data import holds_data

logger = logging.getLogger(__name__)

STAFF_HANDLERS: dict[str, Permission | None] = {}
# The states marked `staff_screen`, wherever their feature keeps them.
STAFF_SCREENS: list[type[BaseState]] = []
_ACTING: ContextVar[StaffActor] = ContextVar("staff_actor")

F = TypeVar("F", bound=Callable[..., Coroutine[Any, Any, Any]])
S = TypeVar("S", bound=type[BaseState])


def staff_screen(state: S) -> S:
    """Marks a staff screen's state, in whichever feature's `state/` folder it lives: what
    it holds is one member's, so it is emptied whenever `StaffState` forgets (sign-out,
    another member on the tab, a stored tab handed to a new connection), and the test that
    every staff handler has a permission rule covers its handlers."""
    STAFF_SCREENS.append(state)
    return state


def home_page(actor: StaffActor) -> str:
    """Where a member starts: the inbox, or Candidates for the hiring team."""
    if allowed(actor, Permission.READ_QUOTES) or not allowed(actor, Permission.HIRE):
        return routes.STAFF_INBOX.path
    return routes.STAFF_CANDIDATES.path


def acting() -> StaffActor:
    """The member whose event is being handled (set by `staff_event`)."""
    return _ACTING.get()


class StaffState(rx.State):
    """The member signed in on this tab, as far as the page needs to know."""

    member_name: str = ""
    member_role: str = ""
    # "" while the check runs; "ok", "denied" or "signed_out" once it has.
    access: str = ""
    _staff_digest: str = ""
    _staff_connection: str = ""
    # The member whose data this tab's staff states hold (0: nobody's).
    _loaded_by: int = 0
    _checked_connection: str = ""

    def _digest(self) -> str | None:
        if self._staff_digest and self._staff_connection == self.router.session.session_id:
            return self._staff_digest
        sealed = cookie_value(self.router.headers.cookie, sessions.COOKIE_NAME)
        return tokens.marked_digest(sealed)

    async def _actor(self) -> StaffActor | None:
        digest = self._digest()
        if digest is None:
            return None
        try:
            return await asyncio.to_thread(
                sessions.digest_actor, digest, client_address=self.router.session.client_ip
            )
        except Exception:
            logger.exception("could not check a staff session")
            return None

    def _remember_sign_in(
        self, digest: str, cookie_ticket: str, actor: StaffActor, *, then: str = ""
    ) -> EventSpec:
        """Remember a sign-in made on this tab; the event trades the ticket for the cookie
        and, with `then`, opens that page once the cookie is set (a page opened before
        would find no sign-in)."""
        self._staff_digest, self._staff_connection = digest, self.router.session.session_id
        self.member_name, self.member_role, self.access = actor.name, actor.role, "ok"
        body = f'JSON.stringify({{"ticket": {_js(cookie_ticket)}}})'
        after = f".finally(() => window.location.assign({_js(then)}))" if then else ""
        return rx.call_script(
            f"fetch({_js(paths.STAFF_COOKIE)}, {{method: 'POST', credentials: 'same-origin', "
            f"headers: {{'Content-Type': 'application/json'}}, body: {body}}})"
            f".catch(() => null){after}"
        )

    async def _forget(self) -> None:
        """Signed out (or the session ended elsewhere): this tab keeps nothing the member
        loaded, since whoever reconnects with its token would get the stored state."""
        self._staff_digest = self._staff_connection = ""
        self._loaded_by = 0
        self.member_name = self.member_role = ""
        self.access = "signed_out"
        for state in STAFF_SCREENS:
            (await self.get_state(state)).reset()

    async def _forget_unless_owner(self) -> None:
        """Before this tab's state is sent to a new connection (rcxsite/state/stored_data.py):
        only the member it was loaded for, by their own cookie, gets it; with nobody
        recorded (never loaded, or the record lapsed first), no staff state keeps data."""
        if not self._loaded_by:
            for state in STAFF_SCREENS:
                held = await self.get_state(state)
                if holds_data(held):
                    held.reset()
            return
        actor = await self._actor()
        if actor is None or actor.member_id != self._loaded_by:
            await self._forget()

    async def _forget_stored_data(self) -> None:
        await self._forget()

    async def _hold_for(self, actor: StaffActor) -> None:
        """What the tab holds from now on is `actor`'s: another member's goes first."""
        if self._loaded_by and self._loaded_by != actor.member_id:
            await self._forget()
        self._loaded_by = actor.member_id

    @rx.event
    async def sign_out(self):
        digest = self._digest()
        actor = await self._actor()
        if digest is not None:
            from rcxsite.staff.sign_in import sign_out

            await asyncio.to_thread(sign_out, digest=digest, actor=actor)
        await self._forget()
        yield rx.call_script(
            f"fetch({_js(paths.STAFF_COOKIE)}, {{method: 'DELETE', credentials: 'same-origin'}})"
            ".catch(() => null)"
        )
        yield rx.redirect(routes.STAFF_LOG_IN.path)


STAFF_HANDLERS["StaffState.sign_out"] = None


def role_may(permission: Permission) -> rx.Var[bool]:
    """Whether the signed-in member's role holds `permission`, as a page reads it: only to
    hide links and controls that would be refused; every handler checks on the server."""
    roles = sorted(GRANTS[permission])
    condition: rx.Var[bool] = StaffState.member_role == roles[0]
    for role in roles[1:]:
        condition = condition | (StaffState.member_role == role)
    return condition


def _js(value: str) -> str:
    return json.dumps(value)


def _sign_in_redirect(path: str) -> EventSpec:
    return rx.redirect(f"{routes.STAFF_LOG_IN.path}?next={urllib.parse.quote(path, safe='')}")


def staff_event(permission: Permission) -> Callable[[F], F]:
    """Wrap a staff handler: it runs only for a signed-in member whose role holds
    `permission`; its return value (events) is passed on."""

    def wrap(handler: F) -> F:
        @functools.wraps(handler)
        async def checked(self: rx.State, *args: Any, **kwargs: Any) -> Any:
            staff = await self.get_state(StaffState)
            actor = await staff._actor()
            if actor is None:
                await staff._forget()
                return _sign_in_redirect(self.router.url.path or routes.STAFF_INBOX.path)
            await staff._hold_for(actor)
            staff.member_name, staff.member_role = actor.name, actor.role
            if not allowed(actor, permission):
                staff.access = "denied"
                from rcxsite.core.audit import record_denied

                try:
                    await asyncio.to_thread(
                        record_denied, actor, handler=handler.__qualname__, permission=permission
                    )
                except Exception:  # the refusal stands even if it could not be recorded
                    logger.exception("could not record a denied staff call")
                return None
            staff.access = "ok"
            token = _ACTING.set(actor)
            try:
                return await handler(self, *args, **kwargs)
            finally:
                _ACTING.reset(token)

        checked.__signature__ = inspect.signature(handler)  # type: ignore[attr-defined]
        STAFF_HANDLERS[handler.__qualname__] = permission
        return rx.event(checked)  # type: ignore[return-value]

    return wrap


__all__ = ["NO_ACCESS", "STAFF_HANDLERS", "StaffState", "acting", "role_may", "staff_event"]
