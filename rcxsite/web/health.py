"""`/livez` (the process answers) and `/healthz` (it can serve: the database and Redis
answer, within a bounded wait), for load balancers. Unauthenticated, and they say nothing
secret (rcxsite/platform/readiness.py)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from rcxsite.platform.readiness import readiness

LIVE_PATH = "/livez"
READY_PATH = "/healthz"
_NOT_KEPT = {"Cache-Control": "no-store"}

router = APIRouter(include_in_schema=False)


@router.get(LIVE_PATH)
async def live() -> JSONResponse:
    return JSONResponse({"status": "ok"}, headers=_NOT_KEPT)


@router.get(READY_PATH)
async def ready() -> JSONResponse:
    ok, parts = await asyncio.to_thread(readiness)
    return JSONResponse(
        {"status": "ok" if ok else "unavailable", **parts},
        status_code=200 if ok else 503,
        headers=_NOT_KEPT,
    )
