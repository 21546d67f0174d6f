"""The site's own ASGI app (every page, middleware, the API and the event websocket) served
inside the test process by Starlette's TestClient, over the isolated site a test package
set up (tests/support/site.py): no frontend build, no server process, no browser. For
tests that speak HTTP and Reflex's websocket the way a client does, without a page."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
import pytest
from reflex.config import get_config
from starlette.testclient import TestClient
from starlette.types import ASGIApp

from tests.support.site import refresh_settings


@functools.cache
def _asgi() -> ASGIApp:
    """The app as `granian --factory rcxsite.rcxsite:app` gets it, made once per process
    (its pages are evaluated once)."""
    from rcxsite.rcxsite import app
    from rcxsite.web.server import server

    # The API's own tests may have served its app in this process already, which fixes its
    # middleware; Reflex adds its CORS middleware to it, as it does when a worker starts.
    server.middleware_stack = None
    return app()


class Socket:
    """One websocket to the in-process site, with the calls tests/support/staff_socket.py
    makes of a network one."""

    def __init__(self, session: Any) -> None:
        self._session = session

    def send(self, text: str) -> None:
        self._session.send_text(text)

    def receive(self, timeout: float) -> str | None:
        async def within() -> Any:
            with anyio.move_on_after(timeout):
                # TestClient's own receive() has no deadline; a handler that never answers
                # must fail the test, not hang it.
                return await self._session._send_rx.receive()
            return None

        message = self._session.portal.call(within)
        if message is None:
            return None
        if message["type"] == "websocket.close":
            raise ConnectionError(f"the site closed the socket ({message.get('code')})")
        return str(message.get("text") or message.get("bytes", b"").decode())

    def close(self) -> None:
        """As a browser's tab closes: Engine.IO's close packet (the server's disconnect
        handlers let go of the tab's token), then the socket itself."""
        with contextlib.suppress(Exception):
            self._session.send_text("1")
        with contextlib.suppress(Exception):
            self._session.__exit__(None, None, None)


@dataclass
class InProcessSite:
    client: TestClient
    url: str

    def request(self, method: str, path: str, **options: Any) -> httpx.Response:
        try:
            return self.client.request(method, path, **options)
        finally:
            self.client.cookies.clear()  # each caller sends its own

    def connect(self, path: str, headers: dict[str, str]) -> Socket:
        session = self.client.websocket_connect(
            path, headers={**headers, "Upgrade": "websocket", "Connection": "Upgrade"}
        )
        session.__enter__()
        return Socket(session)


@contextmanager
def in_process_site() -> Iterator[InProcessSite]:
    """The site, started (its lifespan run) and stopped around the block, at the address
    its websocket accepts (the origin Reflex's config read from SITE_URL when this process
    first loaded it), which is its SITE_URL meanwhile, for the cookie endpoints' Origin
    check. Cookies are not kept between requests: each request carries its own."""
    url = get_config().cors_allowed_origins[0]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SITE_URL", url)
        refresh_settings()
        try:
            with TestClient(_asgi(), base_url=url) as client:
                yield InProcessSite(client, url)
        finally:
            patch.undo()
            refresh_settings()
