"""Forgot password and reset by the emailed link, with the mail caught by a real SMTP server."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, text

from rcxsite.content import routes
from rcxsite.state import messages as msg
from tests.support.accounts_ui import (
    PASSWORD,
    RESET_LINK,
    header_action,
    log_in,
    new_customer,
    record_button_states,
    recorded_button_states,
    unique_email,
)
from tests.support.browser import expect_shown, hold_answers, watch_texts
from tests.support.live_server import LiveServer
from tests.support.smtp import Mailbox
from tests.support.waiting import wait_for

NEW_PASSWORD = "second-pass"
LINK_SENT = "If an account exists for that email, a reset link has been sent."
# Shown for a moment before the page moves on to the login.
RESET_DONE = "Your password has been successfully reset!"


def _request_link(page: Page, email: str) -> None:
    release = hold_answers(page, LINK_SENT)
    page.goto(routes.FORGOT_PASSWORD.path)
    form = page.get_by_role("form", name="Request a reset link")
    form.get_by_label("Email").fill(email)
    form.get_by_role("button", name="Send reset link").click()
    busy = form.get_by_role("button", name="Sending...")
    expect(busy).to_be_disabled()
    release()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text(LINK_SENT)
    expect(busy).to_have_count(0)
    dialog.get_by_role("button", name="OK").click()
    expect(dialog).to_be_hidden()


def _link_from_mail(mailbox: Mailbox, email: str) -> str:
    message = mailbox.wait_for(email, timeout=20)
    text = message.get_body(preferencelist=("plain",)).get_content()
    match = RESET_LINK.search(text)
    assert match, text
    return match.group(0)


def test_forgot_password_validation(any_page: Page) -> None:
    any_page.goto(routes.FORGOT_PASSWORD.path)
    form = any_page.get_by_role("form", name="Request a reset link")
    button = form.get_by_role("button", name="Send reset link")
    button.click()
    expect(form.get_by_text("Email is required")).to_be_visible()
    for bad in ("not-an-email", "jane doe@example.com", "jane@exa mple.com"):
        form.get_by_label("Email").fill(bad)
        button.click()
        expect(form.get_by_text("Invalid email address")).to_be_visible()
    form.get_by_role("link", name="Back to log in").click()
    expect(any_page).to_have_url(re.compile(re.escape(routes.LOG_IN.path) + "/?$"))


def test_unknown_address_gets_the_same_answer_and_no_mail(
    page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    nobody = unique_email("nobody")
    _request_link(page, nobody)
    # Mail leaves in the order it was queued: once a link asked for afterwards has come,
    # a mail to the unknown address would have come before it.
    known = new_customer(live_site.url, "after-nobody")
    _request_link(page, known)
    site_mailbox.wait_for(known)
    assert site_mailbox.sent_to(nobody) == 0


def test_reset_by_emailed_link(
    any_page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    page = any_page
    email = new_customer(live_site.url, "reset")
    _request_link(page, email)
    link = _link_from_mail(site_mailbox, email)
    assert link.startswith(live_site.url + "/authentication/reset-password/")

    page.goto(link)
    form = page.get_by_role("form", name="Reset password")
    expect(form).to_contain_text(email)
    reset = form.get_by_role("button", name="Reset password")
    reset.click()
    expect(form.get_by_text("Please enter a new password.")).to_be_visible()
    expect(form.get_by_text("Please confirm your password.")).to_be_visible()
    form.get_by_label("New password", exact=True).fill("abc")
    form.get_by_label("Confirm password", exact=True).fill("abd")
    reset.click()
    expect(form.get_by_text("Password must be at least 4 characters long.")).to_be_visible()
    expect(form.get_by_text("Passwords do not match.")).to_be_visible()
    form.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    form.get_by_role("button", name="Show new password").click()
    expect(form.get_by_label("New password", exact=True)).to_have_attribute("type", "text")
    form.get_by_label("Confirm password", exact=True).fill(NEW_PASSWORD + "x")
    reset.click()
    expect(form.get_by_text("Passwords do not match.")).to_be_visible()
    form.get_by_label("Confirm password", exact=True).fill(NEW_PASSWORD)
    record_button_states(page, "Reset password")
    watch_texts(page, RESET_DONE)
    reset.click()
    expect_shown(page, RESET_DONE)
    assert ["Resetting...", True] in recorded_button_states(page)
    expect(page).to_have_url(re.compile(re.escape(routes.LOG_IN.path) + "/?$"))
    # The login page says why they are there, and stays saying it (not a passing text).
    expect(page.get_by_text(msg.PASSWORD_CHANGED_SIGN_IN)).to_be_visible()
    changed = site_mailbox.wait_for(email, timeout=20)
    expect(page.get_by_text(msg.PASSWORD_CHANGED_SIGN_IN)).to_be_visible()
    assert "password" in changed["Subject"].lower()

    log_in(page, email, NEW_PASSWORD)
    page.goto(link)
    expect(page.get_by_role("heading", name="Oops!")).to_be_visible()
    expect(page.get_by_text("expired or is invalid")).to_be_visible()
    page.get_by_role("link", name="Request a new reset link").click()
    expect(page).to_have_url(re.compile(re.escape(routes.FORGOT_PASSWORD.path) + "/?$"))


def _stored_state(states: Path, showing: str, timeout_s: float = 15) -> list[bytes]:
    """Reflex's pickled state files, once one of them holds `showing` (it writes them a
    couple of seconds after a change), or at the deadline."""

    def files() -> list[bytes]:
        return [path.read_bytes() for path in states.rglob("*") if path.is_file()]

    wait_for(lambda: any(showing.encode() in data for data in files()), timeout_s=timeout_s)
    return files()


def test_the_reset_token_is_not_kept_in_the_stored_state(
    page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    email = new_customer(live_site.url, "stored")
    _request_link(page, email)
    link = _link_from_mail(site_mailbox, email)
    token = link.rsplit("/", 1)[-1]

    page.goto(link)
    form = page.get_by_role("form", name="Reset password")
    expect(form).to_contain_text(email)
    form.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    form.get_by_label("Confirm password", exact=True).fill(NEW_PASSWORD)
    watch_texts(page, RESET_DONE)
    form.get_by_role("button", name="Reset password").click()
    expect_shown(page, RESET_DONE)

    stored = _stored_state(live_site.data_dir / "states", showing=email)
    assert any(email.encode() in data for data in stored), "the state was never written"
    assert not any(token.encode() in data for data in stored)


def test_reset_link_page_verifies_first_then_rejects_a_bad_token(page: Page) -> None:
    """The server's verdict is held back on the websocket so the waiting state can be seen."""
    release = hold_answers(page, "invalid")
    page.goto(routes.reset_password_path("tampered-token-value"))
    expect(page.get_by_text("Verifying your reset link...")).to_be_visible()
    expect(page.get_by_role("form", name="Reset password")).to_have_count(0)
    release()
    expect(page.get_by_role("heading", name="Oops!")).to_be_visible()
    expect(page.get_by_text("Verifying your reset link...")).to_have_count(0)
    expect(page.get_by_role("form", name="Reset password")).to_have_count(0)


def test_password_reset_signs_out_other_browsers(
    page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    email = new_customer(live_site.url, "revoked")
    log_in(page, email)  # the form: the session this tab started itself must end too
    second = page.context.browser.new_context(base_url=live_site.url)
    try:
        other = second.new_page()
        _request_link(other, email)
        other.goto(_link_from_mail(site_mailbox, email))
        form = other.get_by_role("form", name="Reset password")
        form.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
        form.get_by_label("Confirm password", exact=True).fill(NEW_PASSWORD)
        watch_texts(other, RESET_DONE)
        form.get_by_role("button", name="Reset password").click()
        expect_shown(other, RESET_DONE)
    finally:
        second.close()
    page.locator("footer").get_by_role("link", name="About Us").click()
    header_action(page, "Log in")
    page.goto(routes.LOG_IN.path)
    expect(page.get_by_text("You're already logged in!")).to_have_count(0)
    assert PASSWORD != NEW_PASSWORD


def test_a_stored_reset_digest_does_not_open_the_reset_form(
    page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    """Whoever reads `password_reset_token.token_hash` (a backup, a replica) holds no link."""
    email = new_customer(live_site.url, "stolen-digest")
    _request_link(page, email)
    link = _link_from_mail(site_mailbox, email)
    engine = create_engine(live_site.database_url)
    with engine.connect() as connection:
        stored = connection.execute(
            text(
                "SELECT token_hash FROM password_reset_token JOIN customer "
                "ON customer.id = password_reset_token.customer_id WHERE customer.email = :email"
            ),
            {"email": email},
        ).scalar_one()
    engine.dispose()

    page.goto(routes.reset_password_path(f"sha256:{stored}"))
    expect(page.get_by_role("heading", name="Oops!")).to_be_visible()
    expect(page.get_by_text(email)).to_have_count(0)

    page.goto(link)  # the link itself still works
    expect(page.get_by_role("form", name="Reset password")).to_contain_text(email)
