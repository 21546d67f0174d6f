"""/sitemap.xml, /robots.txt and the Atom feed: the only paths this app serves outside
/api/v1."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse, Response

from rcxsite.meta.feed import feed_xml
from rcxsite.meta.sitemap import robots_txt, sitemap_xml
from rcxsite.routes import FEED_PATH

router = APIRouter(include_in_schema=False)


@router.get("/sitemap.xml")
def sitemap() -> Response:
    return Response(sitemap_xml(), media_type="application/xml")


@router.get("/robots.txt")
def robots() -> PlainTextResponse:
    return PlainTextResponse(robots_txt())


@router.get(FEED_PATH)
def feed() -> Response:
    return Response(feed_xml(), media_type="application/atom+xml")
