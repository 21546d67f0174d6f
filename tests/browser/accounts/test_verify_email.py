"""Verifying the address by the link registration mails, with the mail caught by a real SMTP
server; "Send the link again" on My account. A link verifies only for the customer it was
sent for, logged in: every test logs in before it opens one, or opens it signed out to see
that it asks for a login and uses nothing up."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from rcxsite.content import routes
from tests.support.accounts_ui import (
    log_in_by_cookie,
    new_customer,
    open_registration,
    register,
    submit_login,
    unique_email,
    wait_for_login_cookie,
)
from tests.support.live_server import LiveServer
from tests.support.smtp import VERIFY_LINK, Mailbox

ACCOUNT_URL = re.compile(re.escape(routes.ACCOUNT.path) + "/?$")
VERIFIED = "Your email address is verified."
USED = "This link has expired or was already used."
HOW_TO_GET_ONE = 'Log in and choose "Send the link again" on My account to get a new one.'
LOG_IN_FIRST = (
    "Only the account's owner can verify its email address. Log in here, and this link verifies it."
)


def _register(page: Page, email: str) -> None:
    form = open_registration(page)
    expect(form).to_be_visible()
    dialog = register(page, form, email=email, user_name="Verify Customer")
    dialog.get_by_role("button", name="OK").click()
    expect(dialog).to_be_hidden()


def _link_from_mail(mailbox: Mailbox, email: str) -> str:
    message = mailbox.wait_for(email, timeout=20, verification=True)
    text = message.get_body(preferencelist=("plain",)).get_content()
    match = VERIFY_LINK.search(text)
    assert match, text
    return match.group(0)


def _overview(page: Page):
    page.goto(routes.ACCOUNT.path)
    expect(page).to_have_url(ACCOUNT_URL)
    overview = page.get_by_role("region", name="Overview")
    expect(overview).to_be_visible()
    return overview


def test_registering_then_opening_the_mailed_link_verifies_the_address(
    any_page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    page = any_page
    email = unique_email("verify")
    _register(page, email)
    link = _link_from_mail(site_mailbox, email)
    assert link.startswith(live_site.url + "/verify-email/")

    log_in_by_cookie(page, live_site.url, email)
    overview = _overview(page)
    expect(overview).to_contain_text("Email not verified")
    expect(overview).to_contain_text(
        "Verify your email address to see the quote requests sent from it."
    )
    expect(overview.get_by_role("button", name="Send the link again")).to_be_visible()

    page.goto(link)
    expect(page.get_by_text(VERIFIED)).to_be_visible()
    assert page.locator("meta[name=robots]").get_attribute("content") == "noindex"
    page.get_by_role("link", name="Go to My account").click()
    expect(page).to_have_url(ACCOUNT_URL)
    overview = page.get_by_role("region", name="Overview")
    expect(overview).to_contain_text("No quote requests from this email yet.")
    expect(overview.get_by_text("Email not verified")).to_have_count(0)
    expect(overview.get_by_role("button", name="Send the link again")).to_have_count(0)

    # A link works once: opened again in another tab (the tab that used it keeps saying
    # so across a reload or reconnect), it is refused.
    again = page.context.new_page()
    again.goto(link)
    expect(again.get_by_text(USED)).to_be_visible()
    expect(again.get_by_text(VERIFIED)).to_have_count(0)
    again.close()
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_a_link_sent_again_replaces_the_first(
    page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    email = new_customer(live_site.url, "verify-again")
    first = _link_from_mail(site_mailbox, email)
    log_in_by_cookie(page, live_site.url, email)
    overview = _overview(page)

    overview.get_by_role("button", name="Send the link again").click()

    expect(overview.get_by_text(f"A new link has been sent to {email}.")).to_be_visible()
    second = _link_from_mail(site_mailbox, email)
    assert second != first
    page.goto(first)
    expect(page.get_by_text(USED)).to_be_visible()
    expect(page.get_by_text(HOW_TO_GET_ONE)).to_be_visible()
    page.goto(second)
    expect(page.get_by_text(VERIFIED)).to_be_visible()
    expect(_overview(page).get_by_text("Email not verified")).to_have_count(0)


def test_a_link_opened_signed_out_asks_for_a_login_then_verifies(
    page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    """Someone may have registered the reader's address: opening the mail alone verifies
    nothing. The account's owner logs in from there, and the login verifies it."""
    email = new_customer(live_site.url, "verify-signed-out")
    link = _link_from_mail(site_mailbox, email)

    page.goto(link)
    expect(page.get_by_text(LOG_IN_FIRST)).to_be_visible()
    expect(page.get_by_text(VERIFIED)).to_have_count(0)
    page.get_by_role("link", name="Log in to verify").click()
    expect(page).to_have_url(re.compile(re.escape(routes.LOG_IN.path)))
    submit_login(page, email)
    # Back on My account, the address verified by the login that followed the link.
    expect(page).to_have_url(ACCOUNT_URL)
    overview = page.get_by_role("region", name="Overview")
    expect(overview).to_be_visible()
    expect(overview.get_by_text("Email not verified")).to_have_count(0)

    wait_for_login_cookie(page)  # before a new page load asks for it
    page.goto(link)  # used up now
    expect(page.get_by_text(USED)).to_be_visible()
    assert page.page_errors == []  # type: ignore[attr-defined]
