"""HEAD is answered as GET without the body, on every path this app serves itself.

Monitors and crawlers check /sitemap.xml and /robots.txt with HEAD; FastAPI's routes
answer GET only. The pages (served by Reflex's static files) already answer HEAD.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rcxsite.api.envelope import is_api
from rcxsite.web.seo_routes import SEO_PATHS


class HeadAsGet:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope["method"] != "HEAD"
            or not (is_api(path) or path in SEO_PATHS)
        ):
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)
