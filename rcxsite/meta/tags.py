"""Head tags for a route, all derived from the route table and `SITE_URL`."""

from __future__ import annotations

from typing import Any

import reflex as rx

from rcxsite.routes import Route
from rcxsite.settings import get_settings


def page_title(route: Route) -> str:
    company = get_settings().company_name
    return route.title if company in route.title else f"{route.title} | {company}"


def canonical_url(route: Route) -> str:
    return get_settings().site_url + route.path


def og_image_url() -> str:
    return f"{get_settings().site_url}/og-image.svg"


def meta_tags(route: Route) -> list[dict[str, Any] | rx.Component]:
    settings = get_settings()
    title = page_title(route)
    image = og_image_url()
    tags: list[dict[str, Any] | rx.Component] = [
        {"property": "og:type", "content": "website"},
        {"property": "og:site_name", "content": settings.company_name},
        {"property": "og:title", "content": title},
        {"property": "og:description", "content": route.description},
        {"name": "twitter:card", "content": "summary_large_image"},
        {"name": "twitter:title", "content": title},
        {"name": "twitter:description", "content": route.description},
        {"name": "twitter:image", "content": image},
    ]
    if "[" not in route.path:
        tags.append({"property": "og:url", "content": canonical_url(route)})
        tags.append(rx.el.link(rel="canonical", href=canonical_url(route)))
    if not route.public:
        # Account pages: not for search engines, and a reset link must not leak as a referrer.
        tags.append({"name": "robots", "content": "noindex"})
        tags.append({"name": "referrer", "content": "no-referrer"})
    return tags
