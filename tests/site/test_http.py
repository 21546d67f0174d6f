"""What a client without JavaScript (curl, a crawler) gets from the production build."""

from __future__ import annotations

import html
import re
import urllib.error
import urllib.request

import pytest

from rcxsite.content import routes
from rcxsite.meta.tags import page_title
from tests.support.live_server import LiveServer
from tests.support.plain_http import fetch


@pytest.mark.parametrize("route", routes.public_routes(), ids=lambda r: r.path)
def test_prerendered_html_holds_title_and_heading(live_site: LiveServer, route) -> None:
    status, body = fetch(live_site.url + route.path)
    assert status == 200
    assert f"<title>{html.escape(page_title(route), quote=False)}</title>" in body
    assert "<h1" in body


@pytest.mark.parametrize("path", ["/no-such-page", "/services/nothing", "/insights/x/y"])
def test_unknown_paths_answer_404(live_site: LiveServer, path: str) -> None:
    status, _ = fetch(live_site.url + path)
    assert status == 404


def test_reset_link_paths_answer_200(live_site: LiveServer) -> None:
    status, _ = fetch(live_site.url + routes.reset_password_path("abc123"))
    assert status == 200


def _headers(url: str) -> dict[str, str]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return {key.lower(): value for key, value in response.headers.items()}


def test_hashed_build_files_are_cached_for_a_year_and_pages_are_not(
    live_site: LiveServer,
) -> None:
    _, body = fetch(live_site.url + routes.HOME.path)
    hashed = re.findall(r'(?:href|src)="(/assets/[^"]+\.(?:css|js))"', body)
    assert hashed, "the home page links no built files"
    assert _headers(live_site.url + hashed[0])["cache-control"] == (
        "public, max-age=31536000, immutable"
    )
    assert "immutable" not in _headers(live_site.url + routes.HOME.path).get("cache-control", "")
    assert "immutable" not in _headers(live_site.url + "/styles.css").get("cache-control", "")


@pytest.mark.parametrize(
    "route", [routes.LOG_IN, routes.QUOTE, routes.FORGOT_PASSWORD], ids=lambda r: r.path
)
def test_no_prerendered_form_can_submit_its_fields_in_a_url(
    live_site: LiveServer, route: routes.Route
) -> None:
    """Submitted before the scripts run (Enter pressed early on a slow phone), a form
    without a method sends GET ?email=...&password=...: into history and access logs."""
    _, body = fetch(live_site.url + route.path)
    forms = re.findall(r"<form\b[^>]*>", body)
    assert [form for form in forms if f'action="{routes.SEARCH.path}"' not in form], (
        "the page has no prerendered form"
    )
    for form in forms:
        if f'action="{routes.SEARCH.path}"' in form:
            # The header's site search: a query belongs in the URL (a link to results).
            assert re.search(r'\bmethod="get"', form, re.IGNORECASE), form
            continue
        assert re.search(r'\bmethod="post"', form, re.IGNORECASE), form
