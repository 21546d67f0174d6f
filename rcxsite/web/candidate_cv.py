"""/staff/candidates/<id>/cv: a candidate's CV, for the hiring team only.

The staff session cookie (HttpOnly, SameSite=Strict, so only this site's own pages send
it) names the member; `careers.candidate_cv` checks their permission and writes the
audit entry before the file is read. A PDF opens in the browser (inline), a DOCX or ODT
downloads; nothing is cached anywhere. There is no other way to a CV: the file store's
keys are never in a page, and no CV has a public URL. Not part of the REST API.
"""

from __future__ import annotations

import logging
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from rcxsite import careers
from rcxsite.api.client import client_address
from rcxsite.content import routes
from rcxsite.core import paths
from rcxsite.core.permissions import NO_ACCESS
from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.file_store import FileMissing
from rcxsite.platform.outages import is_outage, log_outage
from rcxsite.staff import sessions

logger = logging.getLogger(__name__)

CANDIDATE_CV_ROUTE = paths.STAFF_CANDIDATE_CV.replace("[id]", "{application_id}")
NOT_FOUND = "This CV is not here any more: the application was withdrawn or erased."
UNAVAILABLE = "The CV cannot be fetched right now. Please try again in a minute."
_ID_MAX = 12

router = APIRouter(include_in_schema=False)


def _plain(status: int, text: str) -> Response:
    return PlainTextResponse(text, status_code=status, headers={"Cache-Control": "no-store"})


def _disposition(name: str, content_type: str) -> str:
    how = "inline" if content_type == "application/pdf" else "attachment"
    fallback = "".join(
        c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in name
    )
    return f"{how}; filename=\"{fallback}\"; filename*=UTF-8''{quote(name, safe='')}"


@router.get(CANDIDATE_CV_ROUTE)
async def candidate_cv(application_id: str, request: Request) -> Response:
    number = (
        int(application_id)
        if application_id.isascii() and application_id.isdigit() and len(application_id) <= _ID_MAX
        else 0
    )
    here = paths.staff_candidate_cv_path(number)
    digest = sessions.session_digest(request.cookies.get(sessions.COOKIE_NAME, ""))
    try:
        actor = (
            await run_in_threadpool(
                sessions.digest_actor, digest, client_address=client_address(request)
            )
            if digest
            else None
        )
        if actor is None:
            sign_in = f"{routes.STAFF_LOG_IN.path}?next={quote(here)}"
            return RedirectResponse(sign_in, status_code=303)
        cv = await run_in_threadpool(careers.candidate_cv, actor, number)
    except ServiceError as refusal:
        if refusal.status == 403:
            return _plain(403, NO_ACCESS)
        return _plain(404, NOT_FOUND)
    except FileMissing:
        return _plain(404, NOT_FOUND)
    except Exception as error:
        if is_outage(error):
            log_outage(error, "GET /staff/candidates/<id>/cv")
            return _plain(503, UNAVAILABLE)
        logger.exception("GET /staff/candidates/<id>/cv failed")
        return _plain(500, UNAVAILABLE)
    return Response(
        cv.file.data,
        media_type=cv.file.content_type,
        headers={
            "Content-Disposition": _disposition(cv.name, cv.file.content_type),
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )
