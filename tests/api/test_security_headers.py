"""The browser rules middleware on its own: HSTS on https, per-page script hashes."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from rcxsite.api.security_headers import HSTS, SecurityHeaders, inline_script_hashes
from rcxsite.settings import Settings

PAGE = (
    '<html><head><script>window.a = 1</script><script type="application/ld+json">{}</script>'
    '<script type="module" src="/assets/x.js"></script></head><body>'
    "<script>window.b = 2</script></body></html>"
)


def _client(static_dir: Path, *, hsts: bool) -> TestClient:
    app = Starlette(routes=[
        Route("/about", lambda request: HTMLResponse(PAGE)),
        Route("/data", lambda request: JSONResponse({})),
    ])
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
        ("http://localhost:3000", "https://admin.rcx.example/, https://b.example",
         ["http://localhost:3000", "https://admin.rcx.example", "https://b.example"]),
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


def test_the_api_docs_page_may_run_its_own_script(client) -> None:
    answer = client.get("/api/v1/docs")
    policy = answer.headers["content-security-policy"]
    hashes = inline_script_hashes(answer.text)
    assert hashes and all(source in policy for source in hashes)
    assert "frame-ancestors 'none'" in policy and "'unsafe-inline'" not in policy
