"""The browser rules middleware on its own: HSTS on https, per-page script hashes, no
Referer from the pages whose path holds a token."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from rcxsite.content import routes
from rcxsite.platform.settings import Settings
from rcxsite.web.security_headers import (
    HSTS,
    NON_PAGE_POLICY,
    SecurityHeaders,
    inline_script_hashes,
    page_policy,
)
from tests.support.csp import third_party_sources

PAGE = (
    '<html><head><script>window.a = 1</script><script type="application/ld+json">{}</script>'
    '<script type="module" src="/assets/x.js"></script></head><body>'
    "<script>window.b = 2</script></body></html>"
)


def _client(static_dir: Path, *, hsts: bool) -> TestClient:
    app = Starlette(
        routes=[
            Route("/about", lambda request: HTMLResponse(PAGE)),
            Route("/staff", lambda request: HTMLResponse(PAGE)),
            Route("/staff/quotes/{id}", lambda request: HTMLResponse(PAGE)),
            Route("/staffing", lambda request: HTMLResponse(PAGE)),
            Route("/data", lambda request: JSONResponse({})),
            # The static server answers every token page with the same shell.
            Route("/{page:path}", lambda request: HTMLResponse(PAGE)),
        ]
    )
    return TestClient(SecurityHeaders(app, static_dir=lambda: static_dir, hsts=hsts))


def test_https_sites_get_hsts(tmp_path: Path) -> None:
    assert _client(tmp_path, hsts=True).get("/data").headers["strict-transport-security"] == HSTS
    assert "strict-transport-security" not in _client(tmp_path, hsts=False).get("/data").headers


def test_only_executable_inline_scripts_are_hashed() -> None:
    assert len(inline_script_hashes(PAGE)) == 2


def test_a_page_gets_the_hashes_of_its_built_file(tmp_path: Path) -> None:
    (tmp_path / "about").mkdir()
    (tmp_path / "about" / "index.html").write_text(PAGE)
    policy = _client(tmp_path, hsts=False).get("/about").headers["content-security-policy"]
    for source in inline_script_hashes(PAGE):
        assert source in policy
    json_policy = _client(tmp_path, hsts=False).get("/data").headers["content-security-policy"]
    assert json_policy.startswith("default-src 'none'")


@pytest.mark.parametrize(
    ("site_url", "extra", "expected"),
    [
        ("https://www.rcx.example/", "", ["https://www.rcx.example"]),
        (
            "http://localhost:3000",
            "https://admin.rcx.example/, https://b.example",
            ["http://localhost:3000", "https://admin.rcx.example", "https://b.example"],
        ),
    ],
)
def test_only_the_site_and_listed_origins_are_trusted(site_url, extra, expected) -> None:
    assert Settings(site_url=site_url, cors_extra_origins=extra).allowed_origins == expected


def test_a_not_modified_answer_keeps_the_cached_page_policy(tmp_path: Path) -> None:
    """A 304's headers replace the cached page's: a JSON policy there would block the page."""
    app = Starlette(routes=[Route("/about", lambda request: Response(status_code=304))])
    client = TestClient(SecurityHeaders(app, static_dir=lambda: tmp_path, hsts=False))
    answer = client.get("/about")
    assert answer.status_code == 304
    assert "content-security-policy" not in answer.headers
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_no_policy_names_a_third_party_origin(client) -> None:
    answers = [
        client.get("/api/v1/openapi.json"),
        client.get("/api/v1/docs"),
        client.post("/api/v1/Auth/Login", json={}),
    ]
    for answer in answers:
        assert answer.headers["content-security-policy"] == NON_PAGE_POLICY
    for policy in (page_policy(PAGE), NON_PAGE_POLICY):
        assert third_party_sources(policy) == []


def test_staff_answers_say_noindex_in_a_header_and_no_other_page_does(tmp_path: Path) -> None:
    client = _client(tmp_path, hsts=False)
    for path in ("/staff", "/staff/quotes/7?tab=notes"):
        assert client.get(path).headers["x-robots-tag"] == "noindex, nofollow", path
    for path in ("/about", "/staffing", "/data"):
        assert "x-robots-tag" not in client.get(path).headers, path


# A token as the links carry it (43 URL-safe characters).
TOKEN = "Abc-_" + "x" * 38
TOKEN_PAGES = [
    routes.reset_password_path(TOKEN),
    routes.verify_email_path(TOKEN),
    routes.staff_invite_path(TOKEN),
    routes.booking_path(TOKEN),
]


def test_pages_whose_path_holds_a_token_send_no_referrer(tmp_path: Path) -> None:
    client = _client(tmp_path, hsts=False)
    for path in (*TOKEN_PAGES, routes.booking_path(TOKEN) + "/?from=mail"):
        assert client.get(path).headers["referrer-policy"] == "no-referrer", path
    for path in ("/about", "/staff/quotes/7", "/data", routes.booking_path("")[:-1]):
        assert client.get(path).headers["referrer-policy"] == ("strict-origin-when-cross-origin"), (
            path
        )


def test_the_whole_server_sends_no_referrer_from_token_pages(client) -> None:
    """Every layer of the site's server, one header each (in-process there is no build,
    and its misses carry the same rule: the rule goes by the path)."""
    for path in TOKEN_PAGES:
        assert client.get(path).headers.get_list("referrer-policy") == ["no-referrer"], path
    assert client.get("/api/v1/openapi.json").headers["referrer-policy"] == (
        "strict-origin-when-cross-origin"
    )
