"""The full-screen loading view shown while a page is not ready."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def test_loading_view_shows_spinner_and_pulsing_image_until_the_page_is_ready(
    page: Page,
) -> None:
    # Holding back the scripts keeps the page in its not-ready state for as long as we look.
    page.route("**/*.js", lambda route: route.abort())
    page.goto("/authentication/reset-password/not-ready", hydrated=False)
    view = page.locator(".loading-view")
    expect(view).to_be_visible()
    assert view.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(0, 0, 0)"
    box = view.bounding_box()
    assert box is not None and box["width"] == 1280 and box["height"] == 900
    assert view.inner_text().strip() == ""

    image = view.get_by_role("img", name="Loading...")
    expect(image).to_be_visible()
    # Layout size, not the pulsing (scaled) rendering.
    size = image.evaluate("e => [e.offsetWidth, e.offsetHeight, getComputedStyle(e).animationName]")
    assert size == [64, 64, "pulse"]

    spinner = view.locator("span").first
    expect(spinner).to_be_visible()
    colours = spinner.evaluate("e => getComputedStyle(e).borderTopColor")
    assert colours == "rgb(216, 195, 165)"
    assert spinner.bounding_box()["width"] >= 150


def test_loading_view_gives_way_to_the_page(page: Page) -> None:
    page.goto("/authentication/reset-password/ready")
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator(".loading-view")).to_have_count(0)
