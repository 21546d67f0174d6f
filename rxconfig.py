"""Reflex configuration. Everything site-specific lives in rcxsite/platform/settings.py."""

import os
from pathlib import Path
from typing import Any

import reflex as rx
from reflex.plugins.sitemap import SitemapPlugin

from rcxsite.platform.outages import redis_url_with_timeouts
from rcxsite.platform.settings import SOCKET_MESSAGE_LIMIT_BYTES, get_settings

settings = get_settings()
# Read by Reflex when it creates its socket server.
os.environ.setdefault("REFLEX_SOCKET_MAX_HTTP_BUFFER_SIZE", str(SOCKET_MESSAGE_LIMIT_BYTES))
_tools_bun = Path(__file__).parent / ".tools" / "node_modules" / ".bin" / "bun"
# The Makefile installs bun from the npm registry; Reflex's own download reaches GitHub.
_bun: dict[str, Any] = {"bun_path": _tools_bun} if _tools_bun.exists() else {}

config = rx.Config(
    app_name="rcxsite",
    db_url=settings.db_url,
    redis_url=redis_url_with_timeouts(settings.redis_url, command_timeout=False) or None,
    telemetry_enabled=False,
    show_built_with_reflex=False,
    deploy_url=settings.site_url,
    # Reflex's default "*" with credentials would let any website call the API as the visitor.
    cors_allowed_origins=settings.allowed_origins,
    frontend_port=settings.port,
    # The screens then see the visitor's address behind proxies, as the REST API does.
    trusted_proxy_hops=settings.trusted_proxy_hops,
    # Each event saves a tab's state for this long (Reflex's default is an hour): the state
    # of a tab that was closed, or of a websocket opened by a script, does not linger.
    redis_token_expiration=settings.tab_state_seconds,
    default_color_mode="dark",
    **_bun,
    disable_plugins=[SitemapPlugin],
    # Brotli first: about a fifth smaller than gzip for our JavaScript on a slow link.
    frontend_compression_formats=["brotli", "gzip"],
)
