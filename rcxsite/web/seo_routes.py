"""/sitemap.xml, /robots.txt and the Atom feed: files for crawlers and feed readers, made
from the route table and the content data; the only paths this server's own routes answer
outside /api/v1 (not part of the REST API: no version, no envelope, not in its OpenAPI
document)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse, Response

from rcxsite.content.routes import FEED_PATH
from rcxsite.meta.feed import feed_xml
from rcxsite.meta.sitemap import robots_txt, sitemap_xml

SITEMAP_PATH = "/sitemap.xml"
ROBOTS_PATH = "/robots.txt"
SEO_PATHS = frozenset({SITEMAP_PATH, ROBOTS_PATH, FEED_PATH})

router = APIRouter(include_in_schema=False)


@router.get(SITEMAP_PATH)
def sitemap() -> Response:
    return Response(sitemap_xml(), media_type="application/xml")


@router.get(ROBOTS_PATH)
def robots() -> PlainTextResponse:
    return PlainTextResponse(robots_txt())


@router.get(FEED_PATH)
def feed() -> Response:
    return Response(feed_xml(), media_type="application/atom+xml")
