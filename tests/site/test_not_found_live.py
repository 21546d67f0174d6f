"""A missing page, fetched without JavaScript (curl, a crawler, a phone still loading):
status 404, and its title and not-found text in the HTML itself."""

from __future__ import annotations

import gzip
import html
import re
import urllib.error
import urllib.request

import pytest

from rcxsite.content.not_found import MESSAGE, TITLE, document_title
from rcxsite.web.security_headers import inline_script_hashes
from tests.support.live_server import LiveServer

MISSES = ["/no-such-page", "/services/nothing", "/insights/x/y", "/assets/missing.js"]


def fetch(url: str, method: str = "GET") -> tuple[int, dict[str, str], str]:
    # As browsers ask: the build also holds a compressed copy of the shell.
    request = urllib.request.Request(url, method=method, headers={"Accept-Encoding": "gzip"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, headers, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, error.headers, error.read()
    if headers.get("Content-Encoding") == "gzip" and body:
        body = gzip.decompress(body)
    return status, {k.lower(): v for k, v in headers.items()}, body.decode()


@pytest.mark.parametrize("path", MISSES)
def test_a_miss_has_its_title_and_text_before_any_script(live_site: LiveServer, path: str) -> None:
    status, headers, body = fetch(live_site.url + path)

    assert status == 404
    assert headers["content-type"].startswith("text/html")
    head, _, page = body.partition("<body")
    assert f"<title>{html.escape(document_title(), quote=False)}</title>" in head
    before_scripts = page.split("<script", 1)[0]
    assert f">{TITLE}</h1>" in before_scripts
    assert html.escape(MESSAGE, quote=False) in before_scripts
    assert re.search(r'<a [^>]*href="/"', before_scripts)  # a way home, also without scripts


def test_head_matches_get(live_site: LiveServer) -> None:
    get_status, get_headers, body = fetch(live_site.url + "/no-such-page")
    head_status, head_headers, head_body = fetch(live_site.url + "/no-such-page", "HEAD")

    assert (head_status, head_body) == (get_status, "")
    for name in ("content-type", "content-length", "content-security-policy"):
        assert head_headers.get(name) == get_headers.get(name), name
    assert int(get_headers["content-length"]) == len(body.encode())
    assert "content-encoding" not in get_headers


def test_the_page_policy_lets_exactly_its_own_inline_scripts_run(live_site: LiveServer) -> None:
    _, headers, body = fetch(live_site.url + "/no-such-page")
    policy = headers["content-security-policy"]
    assert all(source in policy for source in inline_script_hashes(body))
