"""`Vary: Origin` once, with the API mounted the way Reflex mounts it: its CORS middleware
around Reflex's backend, around this app and around the whole."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from rcxsite.web.server import create_server
from rcxsite.web.vary import without_origin

SITE = "https://www.rcx.example"


def _with_cors(app: Starlette) -> Starlette:
    # What reflex.app.App._add_cors adds, with the site's origin as the only one allowed.
    app.add_middleware(
        CORSMiddleware,
        allow_credentials=True,
        allow_methods=["*"],
        allow_headers=["*"],
        allow_origins=[SITE],
    )
    return app


def _reflex_like_server() -> Starlette:
    def page(request: object) -> PlainTextResponse:
        return PlainTextResponse("page", headers={"Vary": "Accept-Encoding"})

    backend = _with_cors(Starlette(routes=[Route("/page", page)]))
    api = _with_cors(create_server())
    api.mount("", backend)
    top = Starlette()
    top.mount("", api)
    return _with_cors(top)


@pytest.mark.parametrize("path", ["/page", "/api/v1/openapi.json", "/api/v1/nothing"])
@pytest.mark.parametrize("origin", [None, SITE, "https://evil.example"])
def test_vary_names_origin_once(path: str, origin: str | None) -> None:
    client = TestClient(_reflex_like_server())
    answer = client.get(path, headers={"Origin": origin} if origin else {})

    vary = answer.headers.get_list("vary")
    tokens = [token.strip().lower() for token in ",".join(vary).split(",")]
    assert tokens.count("origin") == 1, vary
    if path == "/page":
        assert "accept-encoding" in tokens


def test_only_origin_is_dropped() -> None:
    assert without_origin("Accept-Encoding, Origin, origin") == "Accept-Encoding"
    assert without_origin("Origin") == ""
