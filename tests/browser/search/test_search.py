"""Site search in the browser: the header's box, the phone menu's, /search."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from rcxsite.content import routes
from rcxsite.search import QUERY_MAX
from rcxsite.search.service import EMPTY_QUERY, QUERY_TOO_LONG
from tests.support.browser import DESKTOP, PHONE, axe_violations

_RESULTS = re.compile(re.escape(routes.SEARCH.path) + r"/?\?q=")


def _settled(page: Page) -> None:
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")


def _results(page: Page):
    return page.locator("ol.search-results > li")


def test_header_search_from_the_keyboard(page: Page) -> None:
    page.goto(routes.HOME.path)
    box = page.get_by_role("search", name="Site search").get_by_role("searchbox")
    for _ in range(25):  # the skip link, the logo, the menus and links, then the box
        page.keyboard.press("Tab")
        if box.evaluate("element => element === document.activeElement"):
            break
    expect(box).to_be_focused()
    expect(box).to_have_accessible_name("Search the site")
    page.keyboard.type("helthcare")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(_RESULTS.pattern + "helthcare$"))
    first = _results(page).first
    expect(first.get_by_role("link")).to_have_text(routes.route_for("industry", "healthcare").title)
    expect(first).to_contain_text("Industry")
    expect(first.locator("mark").first).to_have_text(re.compile("healthcare", re.I))
    expect(page.get_by_role("status")).to_contain_text(
        "pages match “healthcare” (the closest spelling to “helthcare”)"
    )
    # The page's own box holds the query, to change it.
    expect(page.get_by_role("search", name="Search page").get_by_role("searchbox")).to_have_value(
        "helthcare"
    )


def test_header_search_works_before_any_script_runs(browser, live_site) -> None:
    context = browser.new_context(
        viewport=DESKTOP, base_url=live_site.url, java_script_enabled=False
    )
    try:
        tab = context.new_page()
        tab.goto(routes.ABOUT.path)
        box = tab.get_by_role("search", name="Site search").get_by_role("searchbox")
        box.fill("cloud migration")
        box.press("Enter")
        expect(tab).to_have_url(re.compile(_RESULTS.pattern + r"cloud\+migration$"))
        expect(tab.get_by_role("heading", level=1)).to_have_text(routes.SEARCH.title)
    finally:
        context.close()


def test_phone_menu_search(phone: Page) -> None:
    phone.goto(routes.HOME.path)
    expect(phone.get_by_role("search", name="Site search")).to_be_hidden()
    phone.get_by_role("button", name="Open menu").click()
    menu = phone.get_by_role("dialog")
    form = menu.get_by_role("search", name="Site search, menu")
    form.get_by_role("searchbox", name="Search the site").fill("kubernetes")
    form.get_by_role("button", name="Search").click()
    expect(phone).to_have_url(re.compile(_RESULTS.pattern + "kubernetes$"))
    expect(_results(phone).first.get_by_role("link")).to_have_text(
        routes.route_for("service", "devops").title
    )
    box = _results(phone).first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_results_mark_the_matching_words_and_link_to_the_page(page: Page) -> None:
    page.goto(f"{routes.SEARCH.path}?q=volunteers+teach")
    first = _results(page).first
    expect(first.locator("mark")).to_have_text(["volunteers", "teach"])
    first.get_by_role("link").click()
    expect(page).to_have_url(re.compile(re.escape(routes.CSR.path) + "/?$"))
    expect(page.locator("h1")).to_have_text(routes.CSR.title)


def test_searching_again_from_the_results_page(page: Page) -> None:
    page.goto(f"{routes.SEARCH.path}?q=pricing")
    expect(_results(page).first.get_by_role("link")).to_have_text(routes.PRICING.title)
    box = page.get_by_role("search", name="Search page").get_by_role("searchbox")
    box.fill("privacy")
    box.press("Enter")
    expect(page).to_have_url(re.compile(_RESULTS.pattern + "privacy$"))
    expect(_results(page).first.get_by_role("link")).to_have_text(routes.PRIVACY.title)


def test_empty_nonsense_and_oversized_queries_say_so(page: Page) -> None:
    page.goto(routes.SEARCH.path)
    expect(page.get_by_role("status")).to_have_text(EMPTY_QUERY)
    suggestions = page.get_by_role("list", name="Suggested pages").get_by_role("link")
    expect(suggestions.first).to_have_text(routes.SERVICES_INDEX.text)

    page.goto(f"{routes.SEARCH.path}?q=qwxzjv")
    expect(page.get_by_role("status")).to_contain_text("Nothing on the site matches “qwxzjv”")
    expect(suggestions.first).to_be_visible()
    expect(_results(page)).to_have_count(0)

    page.goto(f"{routes.SEARCH.path}?q={'x' * (QUERY_MAX + 50)}")
    expect(page.get_by_role("status")).to_have_text(QUERY_TOO_LONG)
    expect(page.get_by_role("search", name="Search page").get_by_role("searchbox")).to_have_value(
        "x" * QUERY_MAX
    )
    assert page.page_errors == []


def test_search_page_is_not_for_search_engines(page: Page) -> None:
    page.goto(f"{routes.SEARCH.path}?q=cloud")
    expect(page.locator('meta[name="robots"]')).to_have_attribute("content", "noindex")


def test_no_axe_violations_on_the_search_page(page: Page) -> None:
    """With results, with none (and the suggestions), and refused; at 1280 and 375 px."""
    for query, shown in (
        ("?q=software+testing", _results(page).first),
        ("", page.get_by_text(EMPTY_QUERY)),
        ("?q=qwxzjv", page.get_by_role("list", name="Suggested pages")),
        (f"?q={'x' * (QUERY_MAX + 1)}", page.get_by_text(QUERY_TOO_LONG)),
    ):
        page.set_viewport_size(DESKTOP)
        page.goto(routes.SEARCH.path + query)
        expect(shown).to_be_visible()
        for viewport in (DESKTOP, PHONE):
            page.set_viewport_size(viewport)
            _settled(page)
            assert axe_violations(page) == [], f"{query or 'empty'} at {viewport['width']} px"
