"""The shape of a middleware that changes an HTTP answer's headers on their way out
(security headers, cache headers, Vary): the request passes untouched, and the answer's
first message gets its headers edited before it is sent."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class ResponseHeadersEdited:
    """A subclass says which requests it looks at (`applies`) and what it changes
    (`edit`); websockets and lifespan events pass by."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def applies(self, scope: Scope) -> bool:
        return True

    def edit(self, scope: Scope, status: int, headers: MutableHeaders) -> None:
        raise NotImplementedError

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.applies(scope):
            await self.app(scope, receive, send)
            return

        async def send_edited(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.edit(scope, message["status"], MutableHeaders(scope=message))
            await send(message)

        await self.app(scope, receive, send_edited)
