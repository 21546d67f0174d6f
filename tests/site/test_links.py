"""No internal link or image of any page leads to a missing file or page."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

from rcxsite.content import routes
from tests.support.live_server import LiveServer
from tests.support.plain_http import fetch


class References(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: set[str] = set()
        self.images: set[str] = set()
        self.unsized: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.links.add(values["href"] or "")
        elif tag == "img" and values.get("src"):
            self.images.add(values["src"] or "")
            # Width and height stop layout shift; alt (empty for decoration) is mandatory.
            if not (values.get("width") and values.get("height")) or values.get("alt") is None:
                self.unsized.append(values["src"] or "")
        elif tag == "link" and values.get("rel") in {"icon", "stylesheet"}:
            self.images.add(values.get("href") or "")


def _internal(base: str, page_url: str, href: str) -> str | None:
    url = urldefrag(urljoin(page_url, href)).url
    return url if urlsplit(url).netloc == urlsplit(base).netloc else None


def test_no_internal_link_or_image_is_broken(live_site: LiveServer) -> None:
    pages = [live_site.url + r.path.replace("[token]", "some-token") for r in routes.ROUTES]
    targets: dict[str, str] = {}
    for page_url in pages:
        status, body = fetch(page_url)
        assert status == 200, page_url
        refs = References()
        refs.feed(body)
        assert refs.unsized == [], page_url
        for href in refs.links | refs.images:
            url = _internal(live_site.url, page_url, href)
            if url:
                targets.setdefault(url, page_url)
    assert len(targets) > len(pages)  # menus, footer, cards and images were all found
    broken = []
    for url, found_on in sorted(targets.items()):
        status, _ = fetch(url)
        if status != 200:
            broken.append((status, url, found_on))
    assert broken == []


def test_every_public_page_is_linked_from_another_page(live_site: LiveServer) -> None:
    """A page that only search or a typed address reaches is a page buyers never see."""
    public = {route.path for route in routes.public_routes() if "[" not in route.path}
    linked_from: dict[str, set[str]] = {path: set() for path in public}
    for page in sorted(public):
        status, body = fetch(live_site.url + page)
        assert status == 200, page
        refs = References()
        refs.feed(body)
        for href in refs.links:
            url = _internal(live_site.url, live_site.url + page, href)
            target = urlsplit(url).path.rstrip("/") or "/" if url else None
            if target in linked_from and target != page:
                linked_from[target].add(page)
    assert sorted(path for path, sources in linked_from.items() if not sources) == []
