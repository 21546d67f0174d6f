"""Header behaviour on desktop (hover menus) and phone (overlay menu)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from rcxsite.content import routes
from tests.support.accounts_ui import log_in_by_cookie, new_customer
from tests.support.browser import axe_violations
from tests.support.live_server import LiveServer


def _dropdown(page: Page, label: str):
    return page.locator(".nav-dropdown").filter(has=page.get_by_role("button", name=label))


@pytest.mark.parametrize("group,label", routes.MENU_GROUPS)
def test_menu_opens_on_hover_and_closes_on_leave(page: Page, group: str, label: str) -> None:
    page.goto(routes.ABOUT.path)
    menu = _dropdown(page, label)
    trigger = menu.get_by_role("button", name=label)
    panel = menu.locator(".nav-dropdown-panel")
    expect(panel).to_be_hidden()
    trigger.hover()
    expect(panel).to_be_visible()
    expect(trigger).to_have_attribute("aria-expanded", "true")
    entries = [r.text for r in routes.menu_routes(group)]
    expect(panel.get_by_role("link")).to_have_text(entries)
    expect(panel.locator("svg")).to_have_count(len(entries))
    page.mouse.move(5, 600)
    expect(panel).to_be_hidden()
    expect(trigger).to_have_attribute("aria-expanded", "false")


def test_menu_is_no_wider_than_6xl_and_80_percent_of_the_viewport(page: Page) -> None:
    page.goto(routes.HOME.path)
    _dropdown(page, "Services").get_by_role("button").hover()
    panel = page.locator(".nav-dropdown-panel:visible .nav-dropdown-grid")
    box = panel.bounding_box()
    assert box is not None
    assert box["width"] <= min(72 * 16, 0.8 * 1280)
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1280


def test_clicking_a_menu_link_navigates_and_closes_the_menu(page: Page) -> None:
    page.goto(routes.HOME.path)
    menu = _dropdown(page, "Industry")
    menu.get_by_role("button").hover()
    target = routes.menu_routes("industry")[2]
    menu.get_by_role("link", name=target.text).click()
    expect(page).to_have_url(re.compile(re.escape(target.path) + "/?$"))
    expect(page.locator("h1")).to_have_text(target.title)
    expect(menu.locator(".nav-dropdown-panel")).to_be_hidden()
    # The section the current page belongs to is highlighted.
    expect(menu.get_by_role("button")).to_have_attribute("data-active", "true")


def test_menus_work_from_the_keyboard(page: Page) -> None:
    page.goto(routes.HOME.path)
    trigger = page.get_by_role("button", name="Insights")
    trigger.focus()
    page.keyboard.press("Enter")
    expect(trigger).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Escape")
    expect(trigger).to_have_attribute("aria-expanded", "false")
    expect(trigger).to_be_focused()
    page.keyboard.press("Space")
    expect(trigger).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text(routes.menu_routes("insights")[0].text)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(re.escape(routes.CASE_STUDIES_INDEX.path) + "/?$"))


def test_current_page_link_is_highlighted(page: Page) -> None:
    page.goto(routes.CAREERS.path)
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Careers")).to_have_attribute("aria-current", "page")
    expect(nav.get_by_role("link", name="About")).not_to_have_attribute("aria-current", "page")


def test_header_shows_log_in_for_visitors(page: Page) -> None:
    page.goto(routes.HOME.path)
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Log in").click()
    expect(page).to_have_url(re.compile(re.escape(routes.LOG_IN.path) + "/?$"))


def test_header_is_translucent_and_blurred_at_the_top_and_solid_dark_past_100px(
    any_page: Page,
) -> None:
    """spec.md: translucent and blurred, or solid dark, by the scrolled flag; dark enough
    in both that its text keeps its contrast over a light page (axe)."""
    page = any_page
    page.goto(routes.HOME.path)
    header = page.locator("header.site-header")
    # Waits for hydration so that the header listens to scrolling.
    expect(page.locator("html")).to_have_attribute("data-hydrated", "true")
    expect(header).to_have_attribute("data-scrolled", "false")
    style = "getComputedStyle(document.querySelector('header.site-header'))"
    page.wait_for_function(f"{style}.backgroundColor === 'rgba(17, 17, 17, 0.88)'")
    assert "blur(12px)" in page.evaluate(f"{style}.backdropFilter")
    assert page.evaluate(f"{style}.boxShadow") == "none"
    page.evaluate("window.scrollTo(0, 60)")  # light content under it, not yet 100 px
    assert axe_violations(page) == []

    page.evaluate("window.scrollTo(0, 150)")
    expect(header).to_have_attribute("data-scrolled", "true")
    page.wait_for_function(f"{style}.backgroundColor === 'rgb(17, 17, 17)'")
    page.wait_for_function(f"{style}.boxShadow !== 'none'")
    assert axe_violations(page) == []

    page.evaluate("window.scrollTo(0, 50)")
    expect(header).to_have_attribute("data-scrolled", "false")
    page.wait_for_function(f"{style}.backgroundColor === 'rgba(17, 17, 17, 0.88)'")
    page.wait_for_function(f"{style}.boxShadow === 'none'")


@pytest.mark.parametrize("width", [1024, 1100, 1280, 1440])
def test_the_header_fits_one_line_signed_in_or_not(
    page: Page, live_site: LiveServer, width: int
) -> None:
    def one_line() -> None:
        links = page.locator(".desktop-nav .nav-link")
        expect(links.first).to_be_visible()
        boxes = [box for box in (link.bounding_box() for link in links.all()) if box]
        assert max(box["height"] for box in boxes) < 48, width  # no link wraps
        brand = page.locator(".header-inner > .brand").bounding_box()
        inner = page.locator(".header-inner").bounding_box()
        assert brand and inner
        assert brand["x"] + brand["width"] < min(box["x"] for box in boxes), width
        search = page.locator(".header-search").bounding_box()
        right = max(box["x"] + box["width"] for box in [*boxes, *([search] if search else [])])
        assert right <= inner["x"] + inner["width"] + 1, width

    page.set_viewport_size({"width": width, "height": 800})
    page.goto(routes.ABOUT.path)
    one_line()
    log_in_by_cookie(page, live_site.url, new_customer(live_site.url))
    page.goto(routes.ABOUT.path)
    expect(page.locator(".desktop-nav").get_by_role("link", name="My account")).to_be_visible()
    one_line()
    cta = page.locator(".desktop-nav").get_by_role("link", name="Request a Quote")
    assert cta.evaluate("e => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"


def test_phone_shows_a_hamburger_instead_of_the_inline_menus(phone: Page) -> None:
    phone.goto(routes.HOME.path)
    expect(phone.get_by_role("navigation", name="Main")).to_be_hidden()
    expect(phone.get_by_role("button", name="Open menu")).to_be_visible()


def test_phone_overlay_sections_toggle_independently(phone: Page) -> None:
    phone.goto(routes.HOME.path)
    phone.get_by_role("button", name="Open menu").click()
    overlay = phone.get_by_role("dialog")
    expect(overlay).to_be_visible()
    # Full screen once its opening animation has finished.
    overlay.evaluate(
        """e => new Promise(done => { const check = () => { const r = e.getBoundingClientRect();
           r.width === 375 && r.height === 812 && r.x === 0 && r.y === 0 ? done()
           : requestAnimationFrame(check); }; check(); })"""
    )

    services = overlay.get_by_role("button", name="Services")
    industry = overlay.get_by_role("button", name="Industry")
    first_service = overlay.get_by_role("link", name=routes.menu_routes("services")[0].text)
    first_industry = overlay.get_by_role("link", name=routes.menu_routes("industry")[0].text)
    expect(first_service).to_be_hidden()
    services.click()
    expect(first_service).to_be_visible()
    expect(first_industry).to_be_hidden()
    industry.click()
    expect(first_industry).to_be_visible()
    expect(first_service).to_be_visible()
    services.click()
    expect(first_service).to_be_hidden()
    expect(first_industry).to_be_visible()
    for text in ("About", "Request a Quote", "Careers", "Log in"):
        expect(overlay.get_by_role("link", name=text, exact=True)).to_be_visible()
    overlay.get_by_role("button", name="Close menu").click()
    expect(overlay).to_be_hidden()


def test_phone_menu_entries_start_at_one_left_edge(phone: Page) -> None:
    """The sections' headings and the plain links (About, Careers, Log in) line up."""
    phone.goto(routes.ABOUT.path)
    phone.get_by_role("button", name="Open menu").click()
    menu = phone.get_by_role("dialog")
    expect(menu.get_by_role("link", name="Careers")).to_be_visible()
    text_left = "e => e.getBoundingClientRect().left + parseFloat(getComputedStyle(e).paddingLeft)"
    lefts = {
        round(menu.get_by_role("button", name=name, exact=True).evaluate(text_left))
        for name in ("Services", "Industry", "Insights")
    } | {
        round(menu.get_by_role("link", name=name, exact=True).evaluate(text_left))
        for name in ("About", "Careers", "Log in")
    }
    assert len(lefts) == 1, lefts


def test_phone_overlay_link_navigates_and_closes(phone: Page) -> None:
    phone.goto(routes.HOME.path)
    phone.get_by_role("button", name="Open menu").click()
    overlay = phone.get_by_role("dialog")
    overlay.get_by_role("button", name="Insights").click()
    overlay.get_by_role("link", name="Testimonials").click()
    expect(phone).to_have_url(re.compile(re.escape(routes.TESTIMONIALS.path) + "/?$"))
    expect(overlay).to_be_hidden()
    expect(phone.locator("h1")).to_have_text(routes.TESTIMONIALS.title)


def test_phone_overlay_final_button_requests_a_quote(phone: Page) -> None:
    phone.goto(routes.ABOUT.path)
    phone.get_by_role("button", name="Open menu").click()
    button = phone.get_by_role("dialog").locator(".mobile-cta")
    expect(button).to_have_text("Request A Quote")
    button.click()
    expect(phone).to_have_url(re.compile(re.escape(routes.QUOTE.path) + "/?$"))
    expect(phone.get_by_role("dialog")).to_be_hidden()
