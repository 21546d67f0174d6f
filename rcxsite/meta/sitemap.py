"""sitemap.xml and robots.txt, both written from the route table and `SITE_URL`."""

from __future__ import annotations

from functools import lru_cache
from xml.sax.saxutils import escape

from rcxsite.content import routes
from rcxsite.content.articles import load_articles
from rcxsite.meta.tags import canonical_url
from rcxsite.platform.settings import get_settings


def _last_modified() -> dict[str, str]:
    return {article.slug: article.date for article in load_articles()}


def sitemap_xml() -> str:
    """Every public page, at the address its canonical tag names."""
    return _sitemap_for(get_settings().site_url)


# Routes and content are fixed once the app has started: build the document once per URL.
@lru_cache(maxsize=4)
def _sitemap_for(site_url: str) -> str:
    dates = _last_modified()
    entries = []
    for route in routes.public_routes():
        lastmod = dates.get(route.key) if route.kind == "article" else None
        entries.append(
            "  <url><loc>{}</loc>{}</url>".format(
                escape(canonical_url(route)),
                f"<lastmod>{escape(lastmod)}</lastmod>" if lastmod else "",
            )
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + "\n".join(entries)
        + "\n</urlset>\n"
    )


def robots_txt() -> str:
    # Account pages stay crawlable so that crawlers can see their noindex tag.
    return (
        "User-agent: *\n"
        "Allow: /\n"
        "Disallow: /api/\n"
        "Disallow: /staff\n"
        f"Sitemap: {get_settings().site_url}/sitemap.xml\n"
    )
