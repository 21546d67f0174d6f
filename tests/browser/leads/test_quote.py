"""The request-a-quote form end to end: messages, stored row, sales mail and the export."""

from __future__ import annotations

import csv
import os
import sqlite3
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rcxsite.content import routes
from rcxsite.leads.service import NO_CALL_NEXT_STEPS
from rcxsite.platform.settings import get_settings
from tests.support.booking_site import nobody_takes_calls_on
from tests.support.live_server import LiveServer
from tests.support.quotes import fill_quote_form, next_weekday
from tests.support.smtp import Mailbox

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _nobody_takes_calls(live_site: LiveServer) -> None:
    """The form as a fresh install shows it: a preferred date and time, proposed by mail
    (booking a free time: tests/browser/booking/test_booking.py)."""
    nobody_takes_calls_on(live_site)


def _form(page: Page):
    page.goto(routes.QUOTE.path)
    expect(page.locator("html")).to_have_attribute("data-hydrated", "true")
    form = page.get_by_role("form", name="Request a quote")
    # Once the page has asked who takes calls (nobody here), the form asks for a
    # preference; a form sent before that would be judged a booking.
    expect(form.get_by_label("Preferred call date")).to_be_visible()
    return form


def _rows(live_site: LiveServer, email: str) -> list[tuple]:
    path = live_site.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        return db.execute(
            "SELECT name, company, service, call_date, call_time FROM quote_request "
            "WHERE email = ?",
            (email,),
        ).fetchall()


def test_empty_form_shows_a_message_next_to_every_required_field(any_page: Page) -> None:
    form = _form(any_page)
    form.get_by_role("button", name="Book my call").click()
    for message in (
        "Name is required",
        "Work email is required",
        "Company is required",
        "Please choose a service",
        "Please choose a budget range",
        "Please choose a timeline",
        "Please choose a date for the call",
        "Please choose a time for the call",
        "Message is required",
    ):
        expect(form.get_by_text(message, exact=True)).to_be_visible()
    expect(form.get_by_role("alert")).to_have_text("Please correct the highlighted fields.")
    expect(form.get_by_label("Name")).to_be_focused()
    expect(form.get_by_label("Name")).to_have_attribute("aria-invalid", "true")
    expect(form.get_by_label("Phone (optional)")).to_have_attribute("aria-invalid", "false")


def test_wrong_values_are_explained_and_nothing_typed_is_lost(
    page: Page, live_site: LiveServer
) -> None:
    form = _form(page)
    email = f"not-an-email-{uuid.uuid4().hex[:6]}"
    saturday = next_weekday(days=7)
    saturday += timedelta(days=5 - saturday.weekday())
    fill_quote_form(
        form, name="Helen Carter", email=email, message="Too short", day=saturday.isoformat()
    )
    form.get_by_label("Phone (optional)").fill("call me")
    form.get_by_role("button", name="Book my call").click()
    expect(form.get_by_text("Invalid email", exact=True)).to_be_visible()
    expect(form.get_by_text("Invalid phone number", exact=True)).to_be_visible()
    expect(form.get_by_text("Please choose a weekday", exact=True)).to_be_visible()
    expect(
        form.get_by_text("Please tell us a little more (at least 20 characters)", exact=True)
    ).to_be_visible()
    expect(form.get_by_text("Name is required")).to_have_count(0)
    expect(form.get_by_label("Name")).to_have_value("Helen Carter")
    expect(form.get_by_label("Tell us about your project")).to_have_value("Too short")
    expect(form.get_by_label("Service of interest")).to_have_value("web-development")
    assert _rows(live_site, email) == []


def test_a_valid_request_is_stored_mailed_to_sales_and_exported(
    any_page: Page, live_site: LiveServer, site_mailbox: Mailbox, tmp_path: Path
) -> None:
    page = any_page
    form = _form(page)
    email = f"helen-{uuid.uuid4().hex[:8]}@northway.example"
    day = next_weekday(days=10)
    message = "We need online booking and video consultations for 14 clinics."
    fill_quote_form(form, name="Helen Carter", email=email, message=message, day=day.isoformat())
    form.get_by_role("button", name="Book my call").click()

    confirmation = page.get_by_role("status").filter(has_text="Thank you!")
    expect(confirmation).to_contain_text("Thank you! Your request has been received.")
    expect(confirmation).to_contain_text(f"{day:%A}, {day.day} {day:%B %Y} at 10:30")
    assert _rows(live_site, email) == [
        ("Helen Carter", "Northway Clinics", "web-development", day.isoformat(), "10:30")
    ]

    mail = site_mailbox.wait_for(get_settings().sales_email, timeout=20)
    text = mail.get_body(preferencelist=("plain",)).get_content()
    assert "Helen Carter" in mail["Subject"] and "Northway Clinics" in mail["Subject"]
    assert email in text and message in text and "Web Development" in text
    assert email in mail["Reply-To"]

    out = tmp_path / "leads.csv"
    env = {
        **os.environ,
        "DATABASE_URL": live_site.database_url,
        "DATA_DIR": str(live_site.data_dir),
    }
    subprocess.run(
        [sys.executable, "-m", "rcxsite.leads", "export", "--csv", str(out)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    exported = [row for row in rows if row["email"] == email]
    assert len(exported) == 1
    assert exported[0]["name"] == "Helen Carter"
    assert exported[0]["call_date"] == day.isoformat()
    assert exported[0]["message"] == message

    page.get_by_role("button", name="Send another request").click()
    expect(page.get_by_role("form", name="Request a quote")).to_be_visible()


def test_a_filled_honeypot_looks_accepted_and_is_kept_as_spam(
    page: Page, live_site: LiveServer
) -> None:
    form = _form(page)
    email = f"bot-{uuid.uuid4().hex[:8]}@spam.example"
    fill_quote_form(
        form,
        name="Bot",
        email=email,
        message="Buy cheap followers for your website now!",
        day=next_weekday(days=10).isoformat(),
    )
    page.locator("#quote-website").fill("https://spam.example", force=True)
    form.get_by_role("button", name="Book my call").click()
    expect(page.get_by_role("status").filter(has_text="Thank you!")).to_be_visible()
    # Kept in the staff inbox's spam folder (rcxsite.leads.spam), never mailed to sales.
    path = live_site.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        stored = db.execute(
            "SELECT name, status, mailed_at FROM quote_request WHERE email = ?", (email,)
        ).fetchall()
    assert stored == [("Bot", "spam", None)]


def test_a_request_without_a_call_asks_no_time_and_says_what_follows(
    any_page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    page = any_page
    form = _form(page)
    call = form.get_by_role("radio", name="Book a call (recommended)", exact=True)
    expect(call).to_be_checked()
    without = form.get_by_role("radio", name="Send without a call", exact=True)
    expect(without).to_have_accessible_description("We reply by email within one working day.")
    without.check()
    expect(form.get_by_label("Preferred call date")).to_have_count(0)
    email = f"nora-{uuid.uuid4().hex[:8]}@northway.example"
    fill_quote_form(
        form,
        name="Nora Written",
        email=email,
        message="Please send a written proposal for a patient portal first.",
        day=None,
    )
    form.get_by_role("button", name="Send my request").click()

    confirmation = page.get_by_role("status").filter(has_text="Thank you!")
    expect(confirmation).to_contain_text(NO_CALL_NEXT_STEPS)
    assert _rows(live_site, email) == [
        ("Nora Written", "Northway Clinics", "web-development", None, "")
    ]
    mail = site_mailbox.wait_for(get_settings().sales_email, timeout=30)
    while email not in mail.get_body(preferencelist=("plain",)).get_content():
        mail = site_mailbox.wait_for(get_settings().sales_email, timeout=30)
    assert "No call: reply by email" in mail.get_body(preferencelist=("plain",)).get_content()
