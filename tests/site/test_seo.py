"""What search engines read: head tags, structured data, sitemap.xml and robots.txt."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser

import pytest

from rcxsite.content import routes
from rcxsite.content.careers import OPENINGS
from rcxsite.content.types import Opening
from rcxsite.meta.tags import canonical_url, page_title
from rcxsite.platform.settings import get_settings
from tests.support.live_server import LiveServer
from tests.support.plain_http import fetch

SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


class HeadParser(HTMLParser):
    """Collects meta tags, link rels, JSON-LD blocks and the visible text of <main>."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: dict[str, str] = {}
        self.json_ld: list[str] = []
        self.main_text: list[str] = []
        self._in_json_ld = False
        self._main_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "meta":
            key = values.get("name") or values.get("property")
            if key:
                self.meta[key] = values.get("content", "")
        elif tag == "link" and "rel" in values:
            self.links[values["rel"]] = values.get("href", "")
        elif tag == "script" and values.get("type") == "application/ld+json":
            self._in_json_ld = True
        elif tag == "main" or self._main_depth:
            self._main_depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_json_ld = False
        elif self._main_depth:
            self._main_depth -= 1

    def handle_data(self, data: str) -> None:
        if self._in_json_ld:
            self.json_ld.append(data)
        elif self._main_depth:
            self.main_text.append(data)


def site_url_of(live_site: LiveServer, route: routes.Route) -> str:
    """The canonical URL as the live site, whose SITE_URL is its own address, writes it."""
    return live_site.url + canonical_url(route).removeprefix(get_settings().site_url)


def parse(body: str) -> HeadParser:
    parser = HeadParser()
    parser.feed(body)
    return parser


@pytest.mark.parametrize("route", routes.public_routes(), ids=lambda r: r.path)
def test_each_public_page_has_its_search_tags_and_text(live_site: LiveServer, route) -> None:
    status, body = fetch(live_site.url + route.path)
    assert status == 200
    page = parse(body)
    assert page.meta["description"] == route.description
    assert page.links["canonical"] == site_url_of(live_site, route)
    assert page.meta["og:title"] == page.meta["twitter:title"] == page_title(route)
    assert page.meta["og:description"] == route.description
    assert page.meta["og:url"] == site_url_of(live_site, route)
    assert page.meta["og:image"].endswith("/og-image.png")
    assert page.meta["twitter:card"] == "summary_large_image"
    assert "robots" not in page.meta
    # The prerendered HTML carries the page's words, not just an empty app shell.
    text = " ".join(" ".join(page.main_text).split())
    assert html.unescape(route.title.split(" – ")[0]) in text
    assert len(text) > 400, text


def test_account_pages_ask_not_to_be_indexed(live_site: LiveServer) -> None:
    for route in (routes.LOG_IN, routes.FORGOT_PASSWORD):
        _, body = fetch(live_site.url + route.path)
        assert parse(body).meta["robots"] == "noindex"


def test_titles_and_descriptions_are_unique() -> None:
    titles = Counter(page_title(route) for route in routes.ROUTES)
    descriptions = Counter(route.description for route in routes.ROUTES)
    assert [t for t, n in titles.items() if n > 1] == []
    assert [d for d, n in descriptions.items() if n > 1] == []
    assert all(40 <= len(route.description) <= 170 for route in routes.public_routes()), [
        (route.path, len(route.description))
        for route in routes.public_routes()
        if not 40 <= len(route.description) <= 170
    ]


def test_home_page_describes_the_organization(live_site: LiveServer) -> None:
    _, body = fetch(live_site.url + routes.HOME.path)
    blocks = parse(body).json_ld
    assert len(blocks) == 1
    data = json.loads(blocks[0])
    assert data["@type"] == "Organization"
    assert data["name"] == get_settings().company_name
    assert data["url"] == live_site.url + "/"
    assert all(url.startswith("https://") for url in data["sameAs"])
    _, about = fetch(live_site.url + routes.ABOUT.path)
    assert parse(about).json_ld == []


def test_sitemap_lists_exactly_the_public_pages(live_site: LiveServer) -> None:
    status, body = fetch(live_site.url + "/sitemap.xml")
    assert status == 200
    locations = [loc.text for loc in ET.fromstring(body).iter(f"{SITEMAP_NS}loc")]
    expected = [site_url_of(live_site, route) for route in routes.public_routes()]
    assert sorted(locations) == sorted(expected)
    assert not any("log-in" in url or "password" in url for url in locations)
    for url in locations:
        status, _ = fetch(url)
        assert status == 200, url


def test_robots_txt_points_to_the_sitemap(live_site: LiveServer) -> None:
    status, body = fetch(live_site.url + "/robots.txt")
    assert status == 200
    assert re.search(r"^User-agent: \*$", body, re.M)
    assert f"Sitemap: {live_site.url}/sitemap.xml" in body.splitlines()


# What search engines' job listings require of a JobPosting (and what they recommend and
# this site always gives).
_JOB_POSTING_FIELDS = (
    "title",
    "description",
    "datePosted",
    "validThrough",
    "employmentType",
    "hiringOrganization",
    "baseSalary",
)


@pytest.mark.parametrize("opening", OPENINGS, ids=lambda opening: opening.slug)
def test_each_opening_s_page_is_a_job_posting(live_site: LiveServer, opening: Opening) -> None:
    route = routes.route_for("opening", opening.slug)
    status, body = fetch(live_site.url + route.path)
    assert status == 200
    [block] = parse(body).json_ld
    data = json.loads(block)
    assert data["@type"] == "JobPosting"
    assert [name for name in _JOB_POSTING_FIELDS if not data.get(name)] == []
    assert data["title"] == opening.title
    assert data["hiringOrganization"]["name"] == get_settings().company_name
    assert "jobLocation" in data or data["applicantLocationRequirements"]["name"] == "GB"
    if opening.remote:
        assert data["jobLocationType"] == "TELECOMMUTE"
    assert data["datePosted"] < data["validThrough"]
    salary = data["baseSalary"]
    assert salary["currency"] == "GBP"
    assert (salary["value"]["minValue"], salary["value"]["maxValue"]) == opening.pay
    assert salary["value"]["unitText"] in ("YEAR", "DAY")
    # The description is HTML of the page's own words; nothing in it ends the script early.
    assert opening.requirements[0].replace("'", "&#x27;") in data["description"]
    assert "</script" not in block.lower()
