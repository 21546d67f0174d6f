"""Security headers, CSP and CORS as the production build sends them."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest

from rcxsite.content import routes
from rcxsite.web.security_headers import inline_script_hashes
from tests.support.live_server import LiveServer

EVIL = "https://evil.example"


def request(url: str, *, method: str = "GET", headers: dict[str, str] | None = None):
    req = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def _directives(policy: str) -> dict[str, str]:
    return {
        part.strip().split(" ", 1)[0]: part.strip().partition(" ")[2]
        for part in policy.split(";")
        if part.strip()
    }


@pytest.mark.parametrize(
    "path",
    [
        *[r.path for r in routes.public_routes()],
        "/no-such-page",
        "/api/v1/openapi.json",
        "/sitemap.xml",
        "/favicon.svg",
    ],
)
def test_every_answer_carries_the_browser_rules(live_site: LiveServer, path: str) -> None:
    _, headers, _ = request(live_site.url + path)
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    policy = _directives(headers["Content-Security-Policy"])
    assert policy["object-src"] == "'none'"
    assert policy["base-uri"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    # http://localhost: no HSTS, which would pin a development host to https.
    assert "Strict-Transport-Security" not in headers


@pytest.mark.parametrize("path", ["/", "/about", "/log-in", "/insights/blogs"])
def test_a_page_allows_exactly_its_own_inline_scripts(live_site: LiveServer, path: str) -> None:
    _, headers, body = request(live_site.url + path)
    script_src = _directives(headers["Content-Security-Policy"])["script-src"].split()
    assert "'unsafe-inline'" not in script_src
    hashes = inline_script_hashes(body)
    assert hashes, "the build's pages carry inline scripts"
    assert sorted(h for h in script_src if h.startswith("'sha256-")) == sorted(hashes)


def test_the_api_refuses_other_websites(live_site: LiveServer) -> None:
    preflight = {"Origin": EVIL, "Access-Control-Request-Method": "POST"}
    status, headers, _ = request(
        live_site.url + "/api/v1/User/CreateCustomer", method="OPTIONS", headers=preflight
    )
    assert headers.get("Access-Control-Allow-Origin") is None
    assert status == 400
    _, headers, _ = request(live_site.url + "/api/v1/openapi.json", headers={"Origin": EVIL})
    assert headers.get("Access-Control-Allow-Origin") is None


def test_the_site_itself_may_call_the_api(live_site: LiveServer) -> None:
    own = re.match(r"https?://[^/]+", live_site.url).group(0)
    preflight = {"Origin": own, "Access-Control-Request-Method": "POST"}
    status, headers, _ = request(
        live_site.url + "/api/v1/User/CreateCustomer", method="OPTIONS", headers=preflight
    )
    assert status == 200
    assert headers["Access-Control-Allow-Origin"] == own
