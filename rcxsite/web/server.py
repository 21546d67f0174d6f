"""The server Reflex mounts its backend in (`rx.App(api_transformer=server)`).

It answers the REST API (rcxsite/api/), the files for crawlers (seo_routes.py) and the
staff's calendar feeds (calendar_feed.py) itself; Reflex mounts its backend (pages,
events) at "" inside it, so it claims nothing outside /api/v1 but /sitemap.xml,
/robots.txt, /insights/feed.xml, /staff/calendar/<token>.ics, a candidate's CV
(/staff/candidates/<id>/cv, candidate_cv.py), the load balancers'
/livez and /healthz (health.py) and the scraper's /metrics (metrics.py). Every request, Reflex's
included, passes through its middleware, which `middleware` lists in one place, in the
order a request passes through it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.middleware import Middleware
from starlette.types import ASGIApp

from rcxsite.api.application import ApiApp
from rcxsite.api.body_limit import BodySizeLimit
from rcxsite.api.error_handlers import install_error_handling
from rcxsite.platform.settings import get_settings
from rcxsite.web import calendar_feed, candidate_cv, health, metrics, seo_routes
from rcxsite.web.asset_caching import HashedAssetCaching
from rcxsite.web.client_build import ClientBuild
from rcxsite.web.head_requests import HeadAsGet
from rcxsite.web.login_cookie import LoginCookieExchange
from rcxsite.web.not_found import NotFoundPage
from rcxsite.web.observed import Observed
from rcxsite.web.page_paths import PagesWithoutRedirect
from rcxsite.web.sealed_event_cookies import LoginTokenDigestForEvents
from rcxsite.web.sealed_event_paths import ResetTokenDigestForEvents
from rcxsite.web.security_headers import SecurityHeaders
from rcxsite.web.staff_cookie import StaffCookieExchange
from rcxsite.web.upload_limit import UploadSizeLimit
from rcxsite.web.vary import InnerVaryOriginDropped


class FrameworkLayers:
    """Marks where, among our middleware, the layers we do not place sit: FastAPI's own,
    first its error layer (the `Exception` handler, `_server_error` in
    rcxsite/api/error_handlers.py, answers whatever any layer below raises), then the CORS
    layer Reflex adds to this app when it mounts its backend in it, after `create_server`
    has returned."""


FRAMEWORK_LAYERS = FrameworkLayers()
Layer = Middleware | FrameworkLayers


def built_frontend_dir() -> Path:
    """Where the production build's pages are (what the same server hands out)."""
    from reflex.utils import prerequisites
    from reflex_base import constants

    return prerequisites.get_web_dir() / constants.Dirs.STATIC


def middleware(static_dir: Callable[[], Path], *, hsts: bool) -> list[Layer]:
    """Every layer of this app, outermost first: the order a request passes through them
    (its answer passes back in reverse).

    Around them all sits Reflex's own outer app (its context middleware and the CORS layer
    of the whole server); inside them, FastAPI's exception handlers
    (rcxsite/api/error_handlers.py), then the routes: /api/v1, the crawler files, the
    /api/v1 catch-all, and Reflex's backend mounted at "".
    """
    return [
        # Before anything reads the path: a build's backend address ends in
        # /_b/<build id>, taken off here (a tab of another build is marked).
        Middleware(ClientBuild),
        # Outermost but one: every answer, whichever layer gives it, is counted and carries the
        # request's id, and every log line below names it (rcxsite/web/observed.py).
        Middleware(Observed),
        # Outside this app's CORS layer (added by Reflex, see FRAMEWORK_LAYERS), whose
        # `Vary: Origin` it drops: the CORS layer of the whole server adds it once.
        Middleware(InnerVaryOriginDropped),
        FRAMEWORK_LAYERS,
        # First of ours: every layer below and the routes see a HEAD on /api/v1 or a
        # crawler file as the GET the routes answer, and the body is dropped only after
        # all of them, so a HEAD's headers are the GET's.
        Middleware(HeadAsGet),
        # Outside every layer below that answers a request itself or rewrites its path:
        # it sees each path as the visitor asked for it and puts its headers on every
        # answer they give. It reads no request body.
        Middleware(SecurityHeaders, static_dir=static_dir, hsts=hsts),
        # Ahead of everything that reads a request body: a /api/v1 body over the limit is
        # refused (413 envelope) before anything below buffers or parses it; the others
        # get it replayed.
        Middleware(BodySizeLimit),
        # Beside it, the one body allowed past 64 KB: a CV upload, bounded as it streams in.
        Middleware(UploadSizeLimit),
        # Inside SecurityHeaders: the page it makes keeps the 404 shell's inline scripts,
        # whose hashes are the policy SecurityHeaders finds for a path no file answers.
        Middleware(NotFoundPage, static_dir=static_dir),
        # The next four each act on their own path only (Reflex's event endpoint,
        # /_staff_cookie, /_login_cookie) and change nothing the others read, so their
        # order among themselves is free. This one seals the token of a reset, invitation
        # or verification link in an event's page path before Reflex's backend (further
        # in) reads the event.
        Middleware(ResetTokenDigestForEvents),
        # Answer /_staff_cookie and /_login_cookie, the answers leaving through the
        # security headers above.
        Middleware(StaffCookieExchange),
        Middleware(LoginCookieExchange),
        # Seals the login and staff tokens of the event handshake's Cookie header before
        # Reflex's backend stores the handshake's headers in the tab's state.
        Middleware(LoginTokenDigestForEvents),
        # Inside the layers that read the path as asked: a page's path becomes the
        # `<path>/` the static files answer without a redirect.
        Middleware(PagesWithoutRedirect),
        # Innermost: a year's Cache-Control on the 200s of /assets/ (hashed names), which
        # no layer outside rewrites (SecurityHeaders sets Cache-Control under /api/v1 only).
        Middleware(HashedAssetCaching),
    ]


class Server(ApiApp):
    """An `ApiApp` whose middleware is one ordered list of `Layer`s: those before
    FRAMEWORK_LAYERS wrap the finished stack, the rest are FastAPI's user middleware (which
    FastAPI places inside its error layer; Reflex puts its CORS layer ahead of them)."""

    def __init__(self, layers: Sequence[Layer], **settings: Any) -> None:
        cut = list(layers).index(FRAMEWORK_LAYERS)
        self._around: list[Middleware] = _middleware_only(layers[:cut])
        super().__init__(middleware=_middleware_only(layers[cut + 1 :]), **settings)

    def build_middleware_stack(self) -> ASGIApp:
        app = super().build_middleware_stack()
        for cls, args, kwargs in reversed(self._around):
            app = cls(app, *args, **kwargs)
        return app


def _middleware_only(layers: Sequence[Layer]) -> list[Middleware]:
    assert FRAMEWORK_LAYERS not in layers, "FRAMEWORK_LAYERS is listed once"
    return [layer for layer in layers if isinstance(layer, Middleware)]


def create_server() -> Server:
    server = Server(middleware(built_frontend_dir, hsts=get_settings().secure_cookies))
    server.include_router(seo_routes.router)
    server.include_router(calendar_feed.router)
    server.include_router(candidate_cv.router)
    server.include_router(health.router)
    server.include_router(metrics.router)
    install_error_handling(server)  # last: its /api/v1 catch-all follows every route
    return server


server = create_server()

__all__ = ["create_server", "middleware", "server"]
