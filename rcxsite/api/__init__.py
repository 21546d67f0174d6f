"""The REST API under /api/v1 for other clients of the accounts service.

Reflex mounts its own backend inside this app (`rx.App(api_transformer=api)`), so the app
claims nothing outside /api/v1 but /sitemap.xml and /robots.txt: no root docs, no root
OpenAPI document.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html

from rcxsite.api.caching import HashedAssetCaching
from rcxsite.api.envelope import API_PREFIX
from rcxsite.api.error_handlers import install_error_handling
from rcxsite.api.head_requests import HeadAsGet
from rcxsite.api.page_paths import PagesWithoutRedirect
from rcxsite.api.reset_link_events import ResetTokenDigestForEvents
from rcxsite.api.routes import auth, seo, users
from rcxsite.api.security_headers import SecurityHeaders, docs_policy
from rcxsite.api.session_cookie import LoginTokenDigestForEvents
from rcxsite.settings import get_settings


def built_frontend_dir() -> Path:
    """Where the production build's pages are (what the same server hands out)."""
    from reflex.utils import prerequisites
    from reflex_base import constants

    return prerequisites.get_web_dir() / constants.Dirs.STATIC


def create_api() -> FastAPI:
    app = FastAPI(
        title="RCX API",
        version="1",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=f"{API_PREFIX}/docs",
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,  # its default path, /docs/..., is outside /api/v1
    )
    app.include_router(auth.router, prefix=API_PREFIX)
    app.include_router(users.router, prefix=API_PREFIX)
    app.include_router(seo.router)
    app.add_middleware(HashedAssetCaching)
    app.add_middleware(PagesWithoutRedirect)
    app.add_middleware(LoginTokenDigestForEvents)
    app.add_middleware(ResetTokenDigestForEvents)
    # Outermost of ours, so it sees each page's path as the visitor asked for it.
    docs_page = get_swagger_ui_html(openapi_url=app.openapi_url, title=f"{app.title} - Swagger UI")
    app.add_middleware(
        SecurityHeaders, static_dir=built_frontend_dir, hsts=get_settings().secure_cookies,
        fixed_policies={app.docs_url: docs_policy(docs_page.body.decode())},
    )
    install_error_handling(app)
    app.add_middleware(HeadAsGet)
    return app


api = create_api()

__all__ = ["api", "create_api"]
