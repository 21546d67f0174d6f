"""Reflex configuration. Everything site-specific lives in rcxsite/settings.py."""

from pathlib import Path

import reflex as rx
from reflex.plugins.sitemap import SitemapPlugin

from rcxsite.settings import get_settings

settings = get_settings()
_tools_bun = Path(__file__).parent / ".tools" / "node_modules" / ".bin" / "bun"

config = rx.Config(
    app_name="rcxsite",
    db_url=settings.db_url,
    redis_url=settings.redis_url or None,
    telemetry_enabled=False,
    show_built_with_reflex=False,
    deploy_url=settings.site_url,
    frontend_port=settings.port,
    default_color_mode="dark",
    # The Makefile installs bun from the npm registry; Reflex's own download reaches GitHub.
    **({"bun_path": _tools_bun} if _tools_bun.exists() else {}),
    disable_plugins=[SitemapPlugin],
    # Brotli first: about a fifth smaller than gzip for our JavaScript on a slow link.
    frontend_compression_formats=["brotli", "gzip"],
)
