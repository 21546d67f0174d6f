"""Pages answered at their own path, without a redirect to the trailing-slash form.

The build writes each page as `<path>/index.html`, which the static file server only
finds after a 307 to `<path>/`: a whole extra round trip before a phone can start on the
page. Paths of the route table are rewritten to that form inside the server instead.
The canonical URL (meta/tags.py) stays the same one for both spellings.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from rcxsite.content import routes

PAGE_PATHS = frozenset(
    route.path for route in routes.ROUTES if route.path != "/" and "[" not in route.path
)


class PagesWithoutRedirect:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in ("GET", "HEAD")
            and scope["path"] in PAGE_PATHS
        ):
            path = scope["path"] + "/"
            scope = {**scope, "path": path, "raw_path": path.encode()}
        await self.app(scope, receive, send)
