"""Cache headers for the built frontend, which the same server hands out in production.

Files under /assets/ carry a content hash in their names, so browsers may keep them for a
year; a new build links new names. Everything else (HTML, our own unhashed files) is left
to the default revalidation. Behind nginx the same rule can move to its config.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HASHED_PREFIX = "/assets/"
IMMUTABLE = b"public, max-age=31536000, immutable"


class HashedAssetCaching:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(HASHED_PREFIX):
            await self.app(scope, receive, send)
            return

        async def send_with_cache_header(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 200:
                headers = [
                    (k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"
                ]
                message["headers"] = [*headers, (b"cache-control", IMMUTABLE)]
            await send(message)

        await self.app(scope, receive, send_with_cache_header)
