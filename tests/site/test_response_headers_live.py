"""Headers of the production server's answers, pages, API and misses alike: `Vary: Origin`
once, no Content-Security-Policy naming another site, and no Referer from a page whose
path holds a token."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from rcxsite.content import routes
from tests.support.csp import third_party_sources
from tests.support.live_server import LiveServer

PATHS = [
    routes.HOME.path,
    routes.ABOUT.path,
    "/no-such-page",
    "/styles.css",
    "/sitemap.xml",
    "/api/v1/openapi.json",
    "/api/v1/Auth/CheckResetUrlValide?resetTocken=x",
    "/api/v1/docs",
]


def fetch(url: str, headers: dict[str, str]) -> tuple[int, list[tuple[str, str]], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.getheaders(), response.read()
    except urllib.error.HTTPError as error:
        return error.code, list(error.headers.items()), error.read()


def _values(headers: list[tuple[str, str]], name: str) -> list[str]:
    return [value for key, value in headers if key.lower() == name]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("origin", ["", "site", "https://elsewhere.example"])
def test_vary_names_origin_once(live_site: LiveServer, path: str, origin: str) -> None:
    sent = {"Origin": live_site.url if origin == "site" else origin} if origin else {}
    _, headers, _ = fetch(live_site.url + path, sent)

    values = _values(headers, "vary")
    tokens = [token.strip().lower() for value in values for token in value.split(",")]
    assert tokens.count("origin") == 1, values


@pytest.mark.parametrize("path", PATHS)
def test_no_policy_names_a_third_party_origin(live_site: LiveServer, path: str) -> None:
    _, headers, _ = fetch(live_site.url + path, {})

    policies = _values(headers, "content-security-policy")
    assert len(policies) == 1
    assert third_party_sources(policies[0]) == []


def test_the_docs_page_is_gone_and_the_document_stays(live_site: LiveServer) -> None:
    status, _, body = fetch(live_site.url + "/api/v1/docs", {})
    assert (status, json.loads(body)["message"]) == (404, "Not found.")
    status, _, body = fetch(live_site.url + "/api/v1/openapi.json", {})
    assert status == 200 and json.loads(body)["paths"]


# A token as the links carry it (43 URL-safe characters).
TOKEN = "Abc-_" + "x" * 38


@pytest.mark.parametrize(
    ("path", "policy"),
    [
        (routes.reset_password_path(TOKEN), "no-referrer"),
        (routes.verify_email_path(TOKEN), "no-referrer"),
        (routes.staff_invite_path(TOKEN), "no-referrer"),
        (routes.booking_path(TOKEN), "no-referrer"),
        (routes.HOME.path, "strict-origin-when-cross-origin"),
        (routes.staff_quote_path(7), "strict-origin-when-cross-origin"),
    ],
)
def test_pages_whose_path_holds_a_token_send_no_referrer(
    live_site: LiveServer, path: str, policy: str
) -> None:
    _, headers, body = fetch(live_site.url + path, {})

    assert b"<html" in body.lower()  # the page's shell, as a visitor's browser gets it
    assert _values(headers, "referrer-policy") == [policy]
