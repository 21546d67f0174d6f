"""The REST API under /api/v1 for other clients of the accounts service.

Reflex mounts its own backend inside this app (`rx.App(api_transformer=api)`), so the app
claims nothing outside /api/v1 but /sitemap.xml, /robots.txt and /insights/feed.xml: no
root docs, no root OpenAPI document. The OpenAPI document is /api/v1/openapi.json; there
is no docs page (Swagger UI would load its code from a CDN, and no policy names a
third-party origin).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from rcxsite.api.application import ApiApp
from rcxsite.api.caching import HashedAssetCaching
from rcxsite.api.envelope import API_PREFIX
from rcxsite.api.error_handlers import install_error_handling
from rcxsite.api.head_requests import HeadAsGet
from rcxsite.api.login_cookie import LoginCookieExchange
from rcxsite.api.not_found import NotFoundPage
from rcxsite.api.page_paths import PagesWithoutRedirect
from rcxsite.api.reset_link_events import ResetTokenDigestForEvents
from rcxsite.api.routes import auth, seo, users
from rcxsite.api.security_headers import SecurityHeaders
from rcxsite.api.session_cookie import LoginTokenDigestForEvents
from rcxsite.api.staff_cookie import StaffCookieExchange
from rcxsite.settings import get_settings


def built_frontend_dir() -> Path:
    """Where the production build's pages are (what the same server hands out)."""
    from reflex.utils import prerequisites
    from reflex_base import constants

    return prerequisites.get_web_dir() / constants.Dirs.STATIC


def create_api() -> FastAPI:
    app = ApiApp(
        title="RCX API",
        version="1",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
    )
    app.include_router(auth.router, prefix=API_PREFIX)
    app.include_router(users.router, prefix=API_PREFIX)
    app.include_router(seo.router)
    app.add_middleware(HashedAssetCaching)
    app.add_middleware(PagesWithoutRedirect)
    app.add_middleware(LoginTokenDigestForEvents)
    app.add_middleware(LoginCookieExchange)
    app.add_middleware(StaffCookieExchange)
    app.add_middleware(ResetTokenDigestForEvents)
    app.add_middleware(NotFoundPage, static_dir=built_frontend_dir)
    # Outermost of ours, so it sees each page's path as the visitor asked for it.
    app.add_middleware(
        SecurityHeaders, static_dir=built_frontend_dir, hsts=get_settings().secure_cookies
    )
    install_error_handling(app)
    app.add_middleware(HeadAsGet)
    return app


api = create_api()

__all__ = ["api", "create_api"]
