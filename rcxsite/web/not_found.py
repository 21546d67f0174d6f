"""A miss answers 404 with a title and the not-found text in the HTML itself.

The build's 404.html is only the app's shell (its loading view, no <title>): React Router
renders the not-found page after the scripts have run, and the build cannot prerender a
page for "any other path". So the shell gets the page's title and its texts as plain HTML
(rcxsite/pages/not_found.py) before it is sent. React's hydration passes over an element
it did not render directly in <body>, and adopts the first unowned <title> for its own: the
app then starts as on any other miss. A small style shows the plain text instead of the
loading view until the site frame marks the page as React's (`data-hydrated`, set by
components_js/SiteEffects.jsx), and hides it from then on.

The inline scripts stay those of the shell, so the page policy the security headers find
for the path (the shell's script hashes) fits. Behind nginx, misses are proxied here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from html import escape
from pathlib import Path

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rcxsite.api.envelope import is_api
from rcxsite.content import not_found

SHELL = "404.html"
PLAIN_CLASS = "prerendered-not-found"
_STYLE = (
    f"<style>html:not([data-hydrated]) .loading-view{{display:none}}"
    f"html[data-hydrated] .{PLAIN_CLASS}{{display:none}}</style>"
)
_HEAD = re.compile(r"<head\b[^>]*>", re.I)
_HEAD_END = re.compile(r"</head\s*>", re.I)
_BODY = re.compile(r"<body\b[^>]*>", re.I)


def not_found_document(shell: str) -> str:
    """The shell with the not-found page's title, text and style; unchanged if it is not
    shaped like one (no <head> or <body>)."""
    head, head_end, body = _HEAD.search(shell), _HEAD_END.search(shell), _BODY.search(shell)
    if head is None or head_end is None or body is None:
        return shell
    title = f"<title>{escape(not_found.document_title())}</title>"
    plain = f'<main class="{PLAIN_CLASS}">{not_found.prerendered_html()}</main>'
    return "".join(
        (
            shell[: head.end()],
            title,
            shell[head.end() : head_end.start()],
            _STYLE,
            shell[head_end.start() : body.end()],
            plain,
            shell[body.end() :],
        )
    )


@lru_cache(maxsize=4)
def _document_for(file: Path, mtime_ns: int) -> bytes:
    """Made once per build (again only when a new build replaced the shell)."""
    return not_found_document(file.read_text(encoding="utf-8")).encode()


def not_found_body(static_dir: Path) -> bytes | None:
    file = static_dir / SHELL
    try:
        return _document_for(file, file.stat().st_mtime_ns)
    except OSError:  # no production build (dev mode): the miss stays as it was
        return None


class NotFoundPage:
    """Replaces the HTML of any 404 outside /api/v1 with `not_found_body`."""

    def __init__(self, app: ASGIApp, *, static_dir: Callable[[], Path]) -> None:
        self.app = app
        self._static_dir = static_dir

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] not in ("GET", "HEAD")
            or is_api(scope["path"])
        ):
            await self.app(scope, receive, send)
            return
        replaced = False

        async def send_page(message: Message) -> None:
            nonlocal replaced
            if replaced:
                return  # the shell's own body (or its pathsend) is not sent
            if message["type"] == "http.response.start" and message["status"] == 404:
                is_html = (
                    Headers(raw=message.get("headers", []))
                    .get("content-type", "")
                    .startswith("text/html")
                )
                body = not_found_body(self._static_dir()) if is_html else None
                if body is not None:
                    replaced = True
                    await send(
                        {
                            "type": "http.response.start",
                            "status": 404,
                            "headers": [
                                (b"content-type", b"text/html; charset=utf-8"),
                                (b"content-length", str(len(body)).encode()),
                                (b"cache-control", b"no-cache"),
                            ],
                        }
                    )
                    await send(
                        {
                            "type": "http.response.body",
                            "body": body if scope["method"] == "GET" else b"",
                        }
                    )
                    return
            await send(message)

        await self.app(scope, receive, send_page)
