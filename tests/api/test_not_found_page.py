"""A miss answers 404 with the not-found page's title and text in the HTML itself."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from reflex.utils.precompressed_staticfiles import PrecompressedStaticFiles
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route
from starlette.testclient import TestClient

from rcxsite.content.not_found import MESSAGE, TITLE, document_title
from rcxsite.web.not_found import NotFoundPage, not_found_document
from rcxsite.web.security_headers import inline_script_hashes

# What Reflex's build writes as 404.html: the app's shell, with no title and no text.
SHELL = (
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><script>theme()</script>'
    '</head><body><div class="loading-view" role="status"></div>'
    "<script>window.__reactRouterContext = {};</script></body></html>"
)


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    (tmp_path / "404.html").write_text(SHELL)
    (tmp_path / "404.html.gz").write_bytes(gzip.compress(SHELL.encode()))
    (tmp_path / "about").mkdir()
    (tmp_path / "about" / "index.html").write_text("<html><body>About</body></html>")
    static = PrecompressedStaticFiles(directory=tmp_path, html=True, encodings=["gzip"])
    app = Starlette(
        routes=[
            Route("/api/v1/x", lambda request: JSONResponse({"status": 404}, status_code=404)),
            Mount("/", app=static),
        ]
    )
    return TestClient(NotFoundPage(app, static_dir=lambda: tmp_path))


def test_a_miss_carries_title_and_text_before_any_script(client: TestClient) -> None:
    answer = client.get("/no-such-page", headers={"Accept-Encoding": "gzip"})

    assert answer.status_code == 404
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    assert "content-encoding" not in answer.headers  # not the shell's compressed copy
    head, body = answer.text.split("<body>", 1)
    assert f"<title>{document_title()}</title>" in head
    before_scripts = body.split("<script", 1)[0]
    assert TITLE in before_scripts and MESSAGE in before_scripts


def test_head_answers_as_get_without_the_body(client: TestClient) -> None:
    get, head = client.get("/no-such-page"), client.head("/no-such-page")

    assert (head.status_code, head.content) == (404, b"")
    for name in ("content-type", "content-length"):
        assert head.headers[name] == get.headers[name]


def test_pages_and_api_answers_are_left_alone(client: TestClient) -> None:
    assert client.get("/about/").text == "<html><body>About</body></html>"
    assert client.get("/api/v1/x").json() == {"status": 404}


def test_the_shell_keeps_its_scripts_so_its_page_policy_still_fits() -> None:
    document = not_found_document(SHELL)

    assert inline_script_hashes(document) == inline_script_hashes(SHELL)
    assert document.index("<title>") < document.index("</head>")
    assert document.index(TITLE) < document.index('<div class="loading-view"')


def test_without_a_build_a_miss_stays_as_it_was(tmp_path: Path) -> None:
    app = Starlette(routes=[])
    client = TestClient(NotFoundPage(app, static_dir=lambda: tmp_path / "missing"))
    answer = client.get("/no-such-page")
    assert (answer.status_code, answer.text) == (404, "Not Found")
