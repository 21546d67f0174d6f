"""/api/v1 paths no route serves: 404, or 405 naming the methods the path does take.

Without this they would fall through to the Reflex backend mounted under the same app.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.routing import Match, Mount

from rcxsite.api.envelope import API_PREFIX, envelope_response

_CATCH_ALL = API_PREFIX + "/{path:path}"
_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
_ROUTED = ("GET", "POST", "PUT", "PATCH", "DELETE")  # HEAD follows GET, OPTIONS is CORS's


async def _unknown_api_route(request: Request) -> Response:
    # Mounts are skipped: the Reflex backend mounted at "" would match every method.
    routes = [
        route
        for route in request.app.router.routes
        if not isinstance(route, Mount) and getattr(route, "path", "") != _CATCH_ALL
    ]
    allowed = [
        method
        for method in _ROUTED
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL for route in routes
        )
    ]
    if "GET" in allowed:
        allowed.insert(allowed.index("GET") + 1, "HEAD")  # rcxsite/web/head_requests.py
    if allowed:
        return envelope_response(405, "Method not allowed.", headers={"Allow": ", ".join(allowed)})
    return envelope_response(404, "Not found.")


def add_catch_all(app: FastAPI) -> None:
    """Call after every other route is added: the catch-all must come last."""
    app.add_api_route(
        _CATCH_ALL, _unknown_api_route, methods=list(_METHODS), include_in_schema=False
    )
