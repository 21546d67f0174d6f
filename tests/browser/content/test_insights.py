"""The Insights pages in Chromium: reading time, tags linking to their pages, related
articles at an article's foot, the feed announced and linked, drafts absent."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from rcxsite.content import routes
from rcxsite.content.articles import load_articles, related_articles, tagged
from tests.support.browser import DESKTOP, PHONE, axe_violations
from tests.support.live_server import LiveServer
from tests.support.plain_http import fetch, request

DRAFT_PATH = "/insights/platformengineering"


def _settled(page: Page) -> None:
    expect(page.locator("h1")).to_be_visible()
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")


def test_an_articles_foot_leads_to_related_articles_and_its_tags(any_page: Page) -> None:
    page = any_page
    article = next(a for a in load_articles() if a.slug == "whaleblog")
    page.goto(routes.route_for("article", article.slug).path)
    expect(page.get_by_text(article.reading_time).first).to_be_visible()
    related = page.get_by_role("region", name="Related articles").or_(
        page.locator("section").filter(has=page.get_by_role("heading", name="Related articles"))
    )
    titles = related.get_by_role("heading", level=3)
    expect(titles).to_have_text([a.title for a in related_articles(article)])
    _settled(page)
    assert axe_violations(page) == []

    page.locator(".article-header").get_by_role("link", name="Articles about devops").click()
    expect(page.get_by_role("heading", name="Articles about devops", level=1)).to_be_visible()
    expect(page.get_by_role("heading", level=3)).to_have_text([a.title for a in tagged("devops")])
    for width, height in ((DESKTOP["width"], DESKTOP["height"]), (PHONE["width"], PHONE["height"])):
        page.set_viewport_size({"width": width, "height": height})
        _settled(page)
        assert axe_violations(page) == [], f"tag page at {width} px"


def test_the_blog_lists_reading_times_and_links_the_feed(page: Page, live_site: LiveServer) -> None:
    page.goto(routes.BLOGS.path)
    cards = page.locator(".article-card")
    expect(cards).to_have_count(len([a for a in load_articles() if not a.draft]))
    expect(cards.first).to_contain_text(re.compile(r"\d+ min read"))
    feed = page.get_by_role("link", name="Follow our articles (Atom feed)")
    expect(feed).to_have_attribute("href", routes.FEED_PATH)
    # After the articles, not between their heading and them.
    last_card = cards.last.bounding_box()
    feed_box = feed.bounding_box()
    assert last_card and feed_box and feed_box["y"] > last_card["y"] + last_card["height"]
    expect(feed).to_have_attribute("type", "application/atom+xml")
    # The link's type is an attribute, never a style rule in the page.
    assert "atom+xml" not in " ".join(page.locator("style").all_text_contents())
    with page.expect_response(re.compile(re.escape(routes.FEED_PATH) + "$")) as opened:
        feed.click()
    assert opened.value.headers["content-type"].startswith("application/atom+xml")
    page.goto(routes.BLOGS.path)
    alternate = page.locator('head link[rel="alternate"][type="application/atom+xml"]')
    expect(alternate).to_have_attribute("href", routes.FEED_PATH)
    status, headers, body = request(live_site.url + routes.FEED_PATH)
    assert status == 200
    assert headers["content-type"].startswith("application/atom+xml")
    assert b"<feed" in body and b"platformengineering" not in body
    assert request(live_site.url + routes.FEED_PATH, method="HEAD")[0] == 200


def test_a_draft_is_not_in_the_production_site(page: Page, live_site: LiveServer) -> None:
    assert fetch(live_site.url + DRAFT_PATH)[0] == 404
    page.goto(routes.BLOGS.path)
    expect(page.get_by_text("Platform engineering without the platform team")).to_have_count(0)
