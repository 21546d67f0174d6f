"""One customer's browser tab as its Reflex states see it, driven in process: the site's own
state classes and handlers, given the router data a websocket event brings (the page's
path, the handshake's Cookie header as rcxsite/web/sealed_event_cookies.py leaves it), with no
browser or server. For what a handler does with the tab's state and the services; what
the page then shows is for the browser tests."""

from __future__ import annotations

import asyncio
import inspect
import urllib.parse
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import reflex as rx
from reflex.istate.data import RouterData

import rcxsite.rcxsite  # noqa: F401  (registers every state and page)
from rcxsite.accounts import sessions
from rcxsite.core import tokens
from rcxsite.web.login_cookie import cookie_json
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD

S = TypeVar("S", bound=rx.State)
CLIENT_IP = "192.0.2.80"


def login_cookie(email: str, password: str = PASSWORD) -> str:
    """The Cookie header of a browser that logged in as `email`, as the handshake shows it
    to the states: the login cookie's Token already swapped for its sealed digest."""
    login = calls.authenticate(email=email, password=password, client_ip=CLIENT_IP, via_ticket=True)
    value = cookie_json(
        sessions.ClaimedLogin(
            email_address=login.email_address,
            user_name=login.user_name,
            token=tokens.sealed(login.session_digest),
            customer_id=login.customer_id,
        )
    )
    return f"{sessions.COOKIE_NAME}={urllib.parse.quote(value)}"


class Tab:
    def __init__(self) -> None:
        self.root = rx.State(_reflex_internal_init=True)  # type: ignore[call-arg]
        self.connection = str(uuid.uuid4())

    def open(self, path: str, *, cookie: str = "", query: dict[str, str] | None = None) -> Tab:
        """The tab's events now come from `path` over a connection whose handshake carried
        `cookie`."""
        self.root.router = RouterData.from_router_data(
            {
                "pathname": path,
                # As the browser's address has it: the page reads its query from here.
                "asPath": path + (f"?{urllib.parse.urlencode(query)}" if query else ""),
                "query": query or {},
                "headers": {"cookie": cookie, "origin": "http://site.test"},
                "token": "tab-token",
                "sid": self.connection,
                "ip": CLIENT_IP,
            }
        )
        return self

    def reconnect(self, *, cookie: str = "") -> Tab:
        """The same tab's state over a new connection (a reload, or whoever holds its token)."""
        self.connection = str(uuid.uuid4())
        return self.open(self.root.router.url.path, cookie=cookie)

    def state(self, state_class: type[S]) -> S:
        return self.root.get_substate(state_class.get_full_name().split("."))  # type: ignore[return-value]

    async def run(self, handler: Any, *args: Any) -> list[Any]:
        """Runs one event handler of this tab to its end; returns what it yielded."""
        state = self.state(handler.state)
        result = handler.fn(state, *args)
        if inspect.isasyncgen(result):
            return [event async for event in result]
        if inspect.isawaitable(result):
            result = await result
        return [] if result is None else [result]

    def run_now_coroutine(self, work: Any) -> Any:
        """Awaits `work` (a state's own coroutine) as `run_now` runs a handler."""
        with ThreadPoolExecutor(max_workers=1) as worker:
            return worker.submit(asyncio.run, work).result()

    def run_now(self, handler: Any, *args: Any) -> list[Any]:
        """`run` to its end from synchronous code, on an event loop of its own in a worker
        thread: in a whole run, Playwright's loop is already running in this one."""
        with ThreadPoolExecutor(max_workers=1) as worker:
            return worker.submit(asyncio.run, self.run(handler, *args)).result()
