"""axe-core (WCAG 2.2 A/AA rules and best practices) finds nothing on any route, at both widths."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from rcxsite.content import routes
from tests.support.browser import DESKTOP, PHONE, axe_violations
from tests.support.csp import watch_csp

PATHS = [route.path.replace("[token]", "some-token") for route in routes.ROUTES]


@pytest.mark.parametrize("path", PATHS)
def test_no_axe_or_csp_violations(page: Page, path: str) -> None:
    """At 1280 px, then the same page narrowed to 375 px (the phone layout is CSS only), and
    no Content-Security-Policy violation while it loads and is checked: one load per route
    keeps the suite inside its time budget."""
    csp = watch_csp(page)
    page.goto(path)
    expect(page.locator("html")).to_have_attribute("data-hydrated", "true")
    for width, height in ((DESKTOP["width"], DESKTOP["height"]), (PHONE["width"], PHONE["height"])):
        page.set_viewport_size({"width": width, "height": height})
        expect(page.locator("h1")).to_be_visible()
        # Entry animations must have finished, or axe measures half-transparent text.
        page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
        assert axe_violations(page) == [], f"at {width} px"
    assert csp == []


def test_no_axe_violations_in_opened_states(any_page: Page) -> None:
    """Error messages, the gallery lightbox and the phone menu are checked too."""
    page = any_page
    page.goto(routes.QUOTE.path)
    expect(page.locator("html")).to_have_attribute("data-hydrated", "true")
    page.get_by_role("button", name="Book my call").click()
    expect(page.get_by_text("Name is required")).to_be_visible()
    assert axe_violations(page) == []

    page.goto(routes.GALLERY.path)
    expect(page.locator("html")).to_have_attribute("data-hydrated", "true")
    page.locator(".gallery-open").first.click()
    expect(page.get_by_role("dialog")).to_be_visible()
    assert axe_violations(page) == []

    if page.viewport_size and page.viewport_size["width"] < 800:
        page.goto(routes.HOME.path)
        expect(page.locator("html")).to_have_attribute("data-hydrated", "true")
        page.get_by_role("button", name="Open menu").click()
        expect(page.get_by_role("dialog")).to_be_visible()
        page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
        assert axe_violations(page) == []
