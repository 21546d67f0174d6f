"""Modal dialogs sit in the middle of the screen, on phones and desktops alike."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from rcxsite.content import routes
from tests.support.accounts_ui import unique_email

CENTRED = """d => { const r = d.getBoundingClientRect();
  return Math.abs(r.left + r.width / 2 - innerWidth / 2) < 2
      && Math.abs(r.top + r.height / 2 - innerHeight / 2) < 2; }"""


def _assert_centred(dialog: Locator) -> None:
    expect(dialog).to_be_visible()
    dialog.page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    assert dialog.evaluate(CENTRED)


def test_a_form_result_is_centred(any_page: Page) -> None:
    any_page.goto(routes.FORGOT_PASSWORD.path)
    any_page.get_by_label("Email").fill(unique_email("centred"))
    any_page.get_by_role("button", name="Send reset link").click()
    _assert_centred(any_page.get_by_role("alertdialog"))


def test_the_gallery_lightbox_is_centred(any_page: Page) -> None:
    any_page.goto(routes.GALLERY.path)
    any_page.locator(".gallery-open").first.click()
    _assert_centred(any_page.get_by_role("dialog"))
