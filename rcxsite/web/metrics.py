"""`/metrics`: the host's counters in Prometheus's text format, for its scraper only.

Served only with `Authorization: Bearer <METRICS_TOKEN>`; with no token set the path does
not exist (404), and a wrong or missing token gets 401 and nothing else.
"""

from __future__ import annotations

import asyncio
import hmac

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from rcxsite.jobs.status import health
from rcxsite.platform.metrics import QueueCollector, exposition
from rcxsite.platform.settings import get_settings

METRICS_PATH = "/metrics"
_NOT_KEPT = {"Cache-Control": "no-store"}

router = APIRouter(include_in_schema=False)


def _queue() -> list[tuple[str, int, float | None]]:
    return [
        (
            kind.kind,
            kind.queued,
            kind.oldest_waiting.total_seconds() if kind.oldest_waiting else None,
        )
        for kind in health().kinds
    ]


def _allowed(authorization: str, token: str) -> bool:
    scheme, _, given = authorization.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode()
    )


@router.get(METRICS_PATH)
async def metrics(request: Request) -> Response:
    token = get_settings().metrics_token
    if not token:
        return JSONResponse({"detail": "Not Found"}, status_code=404, headers=_NOT_KEPT)
    if not _allowed(request.headers.get("authorization", ""), token):
        return JSONResponse(
            {"detail": "Unauthorized"},
            status_code=401,
            headers={**_NOT_KEPT, "WWW-Authenticate": "Bearer"},
        )
    body, content_type = await asyncio.to_thread(exposition, QueueCollector(_queue))
    return Response(body, media_type=content_type, headers=_NOT_KEPT)
