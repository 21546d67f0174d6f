"""Browser rules on every response: pages, API answers and files alike.

Pages get a Content-Security-Policy whose `script-src` lists the SHA-256 of each inline
script of that very page (the build writes them: router data, hydration hooks, the module
loader), so no other inline script runs. `'unsafe-eval'` stays because Reflex runs the
scripts an event handler sends (`rx.call_script`) through `eval`. Styles allow inline
because emotion, Reflex's CSS-in-JS, inserts <style> elements at run time. No policy names
a third-party origin: everything a page or answer loads comes from the site itself (so the
API has no Swagger UI page, whose code would come from a CDN; its OpenAPI document stays).
A page whose path holds a token sends no Referer at all: under the site's usual policy its
own requests (its scripts, styles, images, the pages it links to) would carry the whole
URL, token included, to wherever the site's requests are logged.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Scope

from rcxsite.api.envelope import is_api
from rcxsite.content import routes
from rcxsite.web.response_headers import ResponseHeadersEdited

_INLINE_SCRIPT = re.compile(r"<script([^>]*)>(.*?)</script>", re.S)
_COMMON = "object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
# Answers that are not pages (JSON, files) may load nothing at all.
NON_PAGE_POLICY = f"default-src 'none'; {_COMMON}"
PAGE_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-eval'{hashes}; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
    f"connect-src 'self'; form-action 'self'; {_COMMON}"
)
FIXED_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
HSTS = "max-age=31536000; includeSubDomains"
# Replaces FIXED_HEADERS' policy on the pages of routes.TOKEN_ROUTES. It covers the page's
# first load, before React renders the page's own <meta name="referrer"> (meta/tags.py),
# which alone covers a token page reached without loading a page (My account's "Manage").
TOKEN_PAGE_HEADERS = {"Referrer-Policy": "no-referrer"}
TOKEN_PAGE_PREFIXES = tuple(route.path.split("[", 1)[0] for route in routes.TOKEN_ROUTES)
# The back office stays out of search engines even where a page's own robots tag is
# missing (the shell answering /staff/quotes/<id> is one file for every such path).
STAFF_PREFIX = routes.STAFF_INBOX.path
STAFF_ROBOTS = "noindex, nofollow"


def is_staff_path(path: str) -> bool:
    return path == STAFF_PREFIX or path.startswith(STAFF_PREFIX + "/")


def holds_token(path: str) -> bool:
    return path.startswith(TOKEN_PAGE_PREFIXES)


def inline_script_hashes(html: str) -> tuple[str, ...]:
    """CSP sources for every executable inline script of a page, in order."""
    hashes = []
    for attributes, body in _INLINE_SCRIPT.findall(html):
        if "src=" in attributes or "application/ld+json" in attributes or not body:
            continue  # external, or data that is never executed
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        hashes.append(f"'sha256-{digest}'")
    return tuple(dict.fromkeys(hashes))


def page_policy(html: str) -> str:
    return PAGE_POLICY.format(hashes="".join(f" {h}" for h in inline_script_hashes(html)))


@lru_cache(maxsize=256)
def _policy_for_file(file: Path, mtime_ns: int) -> str:
    """Read once per built file (and again only if a new build replaced it)."""
    return page_policy(file.read_text(encoding="utf-8", errors="replace"))


def _page_files(path: str) -> tuple[str, ...]:
    """Which built file the static server answers `path` with, best guess first."""
    inner = path.strip("/")
    if ".." in inner.split("/"):
        return ("404.html",)
    if not inner:
        return ("index.html",)
    return (f"{inner}/index.html", f"{inner}.html", "__spa-fallback.html", "404.html")


class SecurityHeaders(ResponseHeadersEdited):
    def __init__(self, app: ASGIApp, *, static_dir: Callable[[], Path], hsts: bool) -> None:
        super().__init__(app)
        self._static_dir = static_dir
        self._hsts = hsts

    def _page_policy(self, path: str) -> str:
        root = self._static_dir()
        for name in _page_files(path):
            file = root / name
            try:
                return _policy_for_file(file, file.stat().st_mtime_ns)
            except (OSError, ValueError):  # missing, or a name no file can have
                continue
        return PAGE_POLICY.format(hashes="")

    def edit(self, scope: Scope, status: int, headers: MutableHeaders) -> None:
        for name, value in FIXED_HEADERS.items():
            headers[name] = value
        if holds_token(scope["path"]):
            headers.update(TOKEN_PAGE_HEADERS)
        if self._hsts:
            headers["Strict-Transport-Security"] = HSTS
        if is_staff_path(scope["path"]):
            headers["X-Robots-Tag"] = STAFF_ROBOTS
        if is_api(scope["path"]):
            # API answers are personal (tokens, account data): never stored.
            headers["Cache-Control"] = "no-store"
        # A 304 has no content type, and its headers replace the cached copy's: it keeps
        # the policy the full answer brought.
        if status != 304:
            is_page = headers.get("content-type", "").startswith("text/html")
            headers["Content-Security-Policy"] = (
                self._page_policy(scope["path"]) if is_page else NON_PAGE_POLICY
            )
