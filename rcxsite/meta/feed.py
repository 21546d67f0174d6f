"""The Atom 1.0 feed of the Insights articles at /insights/feed.xml, from SITE_URL.

Entry ids are tag URIs from the site's host, the article's first date and its path: they
stay the same when an article is edited, so a reader never shows it twice. The full
article goes along as escaped HTML whose links are absolute (readers show it elsewhere).
Drafts are never in the feed, not even under `make dev`.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit
from xml.sax.saxutils import escape, quoteattr

from rcxsite.content import routes
from rcxsite.content.articles import article_html, load_articles
from rcxsite.content.types import Article
from rcxsite.platform.settings import get_settings

FEED_TITLE = "Insights"


def feed_xml() -> str:
    return _feed_for(get_settings().site_url)


def _timestamp(day: str) -> str:
    return f"{day}T00:00:00Z"


def _absolute_links(html: str, site_url: str) -> str:
    return html.replace('href="/', f'href="{site_url}/').replace('src="/', f'src="{site_url}/')


def _entry(article: Article, site_url: str, host: str) -> str:
    path = routes.route_for("article", article.slug).path
    categories = "".join(f"\n    <category term={quoteattr(tag)}/>" for tag in article.tags)
    return (
        "  <entry>\n"
        f"    <title>{escape(article.title)}</title>\n"
        f'    <link rel="alternate" type="text/html" href={quoteattr(site_url + path)}/>\n'
        f"    <id>tag:{escape(host)},{article.date}:{escape(path)}</id>\n"
        f"    <published>{_timestamp(article.date)}</published>\n"
        f"    <updated>{_timestamp(article.date)}</updated>\n"
        f"    <author><name>{escape(article.author)}</name></author>{categories}\n"
        f"    <summary>{escape(article.summary)}</summary>\n"
        f'    <content type="html">{escape(_absolute_links(article_html(article), site_url))}'
        "</content>\n"
        "  </entry>"
    )


@lru_cache(maxsize=4)
def _feed_for(site_url: str) -> str:
    settings = get_settings()
    articles = [article for article in load_articles() if not article.draft]
    host = urlsplit(site_url).hostname or "localhost"
    newest = max((article.date for article in articles), default="2026-01-01")
    blog = site_url + routes.BLOGS.path
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        f"  <title>{escape(settings.company_name)} {FEED_TITLE}</title>\n"
        f"  <subtitle>{escape(routes.BLOGS.description)}</subtitle>\n"
        f'  <link rel="self" type="application/atom+xml" '
        f"href={quoteattr(site_url + routes.FEED_PATH)}/>\n"
        f'  <link rel="alternate" type="text/html" href={quoteattr(blog)}/>\n'
        f"  <id>{escape(site_url + routes.FEED_PATH)}</id>\n"
        f"  <updated>{_timestamp(newest)}</updated>\n"
        + "".join(_entry(article, site_url, host) + "\n" for article in articles)
        + "</feed>\n"
    )
