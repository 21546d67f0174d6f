"""Book my call as a buyer does it in a browser, and as a rival does it through the API,
on any running site (the live site or the scaled one)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

from rcxsite.content import routes
from rcxsite.content.quote import BUDGETS, TIMELINES
from tests.support.plain_http import request

# The manage link in a mail.
MANAGE_LINK = re.compile(r"https?://\S+/booking/[A-Za-z0-9_-]+")


def quote_form(page: Page) -> Locator:
    page.goto(routes.QUOTE.path)
    return page.get_by_role("form", name="Request a quote")


def fill_booking(form: Locator, *, email: str) -> None:
    form.get_by_label("Name").fill("Dana Buyer")
    form.get_by_label("Work email").fill(email)
    form.get_by_label("Company").fill("Northway Clinics")
    form.get_by_label("Service of interest").select_option(label="Web Development")
    form.get_by_label("Budget range").select_option(BUDGETS[1][0])
    form.get_by_label("Timeline").select_option(TIMELINES[0][0])
    form.get_by_label("Tell us about your project").fill("We need a booking site for 40 clinics.")


def first_free_time(form: Locator) -> str:
    """Chooses the first free time shown; its start (UTC) as the form sends it."""
    first = form.locator(".slot-radio").first
    expect(first).to_be_attached()
    start = first.get_attribute("value") or ""
    first.check()
    return start


def api_book(site_url: str, start: str, email: str) -> tuple[int, dict[str, Any]]:
    """POST /api/v1/Booking for `start` as another buyer: the status and the body."""
    body = {
        "name": "Rival Buyer",
        "email": email,
        "company": "Elsewhere Ltd",
        "service": "web-development",
        "budget": BUDGETS[0][0],
        "timeline": TIMELINES[0][0],
        "message": "We would like the same time, please, it suits us.",
        "start": start,
        "timeZone": "Europe/London",
    }
    status, _, answer = request(site_url + "/api/v1/Booking", method="POST", body=body)
    return status, json.loads(answer or b"{}")
