"""The gallery opens each picture in a modal that works from the keyboard alone."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from rcxsite.content import routes
from rcxsite.content.gallery import GALLERY


def test_gallery_lightbox_with_the_keyboard(any_page: Page) -> None:
    page = any_page
    page.goto(routes.GALLERY.path)
    expect(page.locator("html")).to_have_attribute("data-hydrated", "true")
    images = page.locator(".gallery img")
    expect(images).to_have_count(len(GALLERY))
    for index in range(len(GALLERY)):
        img = images.nth(index)
        assert img.get_attribute("loading") == "lazy"
        assert img.get_attribute("width") and img.get_attribute("height")

    opener = page.get_by_role("button", name=f"Open picture: {GALLERY[1].title}")
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name=GALLERY[1].title)
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Close")).to_be_focused()
    expect(dialog.get_by_role("img")).to_have_attribute("alt", GALLERY[1].alt)
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("dialog", name=GALLERY[2].title)).to_be_visible()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_role("dialog", name=GALLERY[0].title)).to_contain_text(
        f"(1 of {len(GALLERY)})"
    )
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(opener).to_be_focused()
