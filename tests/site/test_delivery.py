"""How the production build delivers pages to a phone."""

from __future__ import annotations

import re
import urllib.request

import pytest

from rcxsite.content import routes
from tests.support.live_server import LiveServer


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _get(url: str, **headers: str):
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def _canonical(body: bytes) -> bytes:
    return re.search(rb'<link href="([^"]+)" rel="canonical"', body).group(1)


@pytest.mark.parametrize("path", [routes.ABOUT.path, routes.PRICING.path, routes.BLOGS.path])
def test_pages_answer_at_their_own_path_without_a_redirect(live_site: LiveServer, path) -> None:
    status, _, body = _get(live_site.url + path)
    assert status == 200
    # Still one canonical URL, whichever spelling was asked for.
    assert _canonical(body) == _canonical(_get(live_site.url + path + "/")[2])


def test_scripts_and_styles_come_brotli_compressed(live_site: LiveServer) -> None:
    _, _, page = _get(live_site.url + "/")
    assets = re.findall(rb'href="(/assets/[^"]+\.(?:js|css))"', page)
    assert assets
    for asset in assets:
        _, headers, _ = _get(live_site.url + asset.decode(), **{"Accept-Encoding": "br, gzip"})
        assert headers["Content-Encoding"] == "br"


def test_no_component_library_stylesheet(live_site: LiveServer) -> None:
    """Radix Themes alone was 712 KB of CSS on every page; ours is some 49 KB (8 KB sent)
    with the staff office's and the careers forms' rules."""
    _, _, page = _get(live_site.url + "/")
    (stylesheet,) = re.findall(rb'href="(/assets/[^"]+\.css)" rel="stylesheet"', page)
    _, _, css = _get(live_site.url + stylesheet.decode())
    assert len(css) < 52_000
    assert b"radix-themes" not in css
