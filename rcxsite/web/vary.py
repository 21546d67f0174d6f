"""`Vary: Origin` once per answer.

Reflex wraps the server in three copies of the same CORS middleware: around its own
backend, around this app (`api_transformer`) and around the whole. Each appends `Origin` to
`Vary`, so every answer said `Vary: Origin, Origin, Origin`. The outermost copy always
appends it (whether or not the request had an Origin, allowed or not), so the inner ones'
are dropped here, just inside it: the whole app's stack is wrapped (first in the list of
rcxsite/web/server.py), because Reflex adds its CORS layer to this app only after
`create_server` has returned.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def without_origin(vary: str) -> str:
    return ", ".join(
        part.strip()
        for part in vary.split(",")
        if part.strip() and part.strip().lower() != "origin"
    )


class InnerVaryOriginDropped:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_without_origin(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                values = headers.getlist("vary")
                if values:
                    del headers["vary"]
                    kept = without_origin(", ".join(values))
                    if kept:
                        headers["Vary"] = kept
            await send(message)

        await self.app(scope, receive, send_without_origin)
