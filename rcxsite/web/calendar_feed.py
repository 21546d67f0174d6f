"""/staff/calendar/<token>.ics: a member's calls as a calendar subscription
(rcxsite.booking.calls.feed_ics), fetched by Google, Outlook or Apple calendars, which
send no cookie: the secret token in the path is the only key.

So the path is never written anywhere: nginx keeps no access log, and this route answers
its own failures (the server's error handler would log the path with the token). Each
client address may fetch `FEED_LIMIT` times a minute, whether the token is right or not.
Not part of the REST API: no version, no envelope, not in its OpenAPI document.
"""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response
from starlette.concurrency import run_in_threadpool

from rcxsite.api.client import client_address
from rcxsite.booking.calls import FEED_PATH, FEED_SUFFIX, feed_ics
from rcxsite.core.ratelimit import Limit, RateLimited, client_key, hit
from rcxsite.platform.outages import is_outage, log_outage

logger = logging.getLogger(__name__)

CALENDAR_FEED_ROUTE = f"{FEED_PATH}/{{token}}{FEED_SUFFIX}"
FEED_LIMIT = "60 per minute"
FEED_LIMIT_SCOPE = "calendar-feed"
CONTENT_TYPE = "text/calendar; charset=utf-8"
# Calendars poll; a member's own copy may be kept a few minutes, never by a shared cache.
CACHE_CONTROL = "private, max-age=300"
NOT_FOUND = "No calendar here. Copy the feed's current address from My calls."
UNAVAILABLE = "The calendar is unavailable right now. Please try again later."
# Where the log says a failure happened: the route, never the path with its token.
_WHERE = f"GET {FEED_PATH}/…{FEED_SUFFIX}"

router = APIRouter(include_in_schema=False)


def _plain(status: int, text: str, **headers: str) -> Response:
    return PlainTextResponse(
        text, status_code=status, headers={"Cache-Control": "no-store", **headers}
    )


@router.get(CALENDAR_FEED_ROUTE)
async def calendar_feed(token: str, request: Request) -> Response:
    try:
        await run_in_threadpool(
            hit, Limit(FEED_LIMIT, FEED_LIMIT_SCOPE, client_key(client_address(request)))
        )
        ics = await run_in_threadpool(feed_ics, token)
    except RateLimited as refusal:
        return _plain(429, refusal.message, **{"Retry-After": str(refusal.retry_after or 60)})
    except Exception as error:
        if is_outage(error):
            log_outage(error, _WHERE)
            return _plain(503, UNAVAILABLE, **{"Retry-After": "30"})
        logger.exception("%s failed", _WHERE)
        return _plain(500, UNAVAILABLE)
    if ics is None:
        return _plain(404, NOT_FOUND)
    return Response(
        ics.encode("utf-8"),
        media_type=CONTENT_TYPE,
        headers={"Cache-Control": CACHE_CONTROL},
    )


__all__ = ["CACHE_CONTROL", "CALENDAR_FEED_ROUTE", "CONTENT_TYPE", "router"]
