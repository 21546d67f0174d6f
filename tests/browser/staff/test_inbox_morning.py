"""The inbox's morning view in Chromium at 1280 and 375 px: "Calls today" counts and
lists today's calls, soonest first; a header (at 1280 px) or the "Sort by" select (on a
phone, where the headers are not shown) sorts the list and a second click reverses it;
the view is in the address, so a reload keeps it and Back undoes the last change. axe and
the Content-Security-Policy are checked on the views shown."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from playwright.sync_api import Locator, Page, expect
from sqlalchemy import create_engine, text
from sqlmodel import Session

from rcxsite.models import utcnow
from tests.support.booking import booking_row
from tests.support.browser import axe_violations
from tests.support.csp import watch_csp
from tests.support.live_server import LiveServer
from tests.support.quotes import add_quotes
from tests.support.staff_ui import signed_in_member


def _add_with_calls(site: LiveServer, rows: list[dict[str, Any]]) -> None:
    """Requests in the live site's database; those with a `call` (a UTC moment) booked
    with one of its members as host."""
    ids = add_quotes(
        [
            {
                "name": row["name"],
                "email": f"morning.{uuid.uuid4().hex[:8]}@example.com",
                "status": row.get("status", "contacted"),
                "created_at": utcnow() - timedelta(hours=1),
            }
            for row in rows
        ],
        database_url=site.database_url,
    )
    engine = create_engine(site.database_url)
    try:
        with Session(engine) as session:
            host = session.execute(text("SELECT min(id) FROM staff_member")).scalar_one()
            for quote_id, row in zip(ids, rows, strict=True):
                if "call" in row:
                    session.add(booking_row(quote_id, host, row["call"], email="m@example.com"))
            session.commit()
    finally:
        engine.dispose()


def _names(page: Page) -> Locator:
    return page.get_by_role("table", name="Quote requests").locator("tbody tr a")


def _no_axe(page: Page, what: str) -> None:
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    assert axe_violations(page) == [], what


def test_calls_today_sorted_either_way_kept_in_the_address(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    csp = watch_csp(page)
    phone = (page.viewport_size or {}).get("width", 1280) < 640
    signed_in_member(page, live_site, "sales")
    tag = f"Morning{uuid.uuid4().hex[:6]}"
    # Today (UTC, the new member's clock): minutes after midnight, so never tomorrow.
    midnight = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    _add_with_calls(
        live_site,
        [
            {"name": f"Late {tag}", "call": midnight + timedelta(minutes=20), "status": "new"},
            {"name": f"Early {tag}", "call": midnight + timedelta(minutes=10)},
            {"name": f"Tomorrow {tag}", "call": midnight + timedelta(days=1, minutes=10)},
            {"name": f"Quiet {tag}"},
        ],
    )
    search = page.get_by_label("Search", exact=True)
    search.fill(tag)
    search.press("Enter")
    expect(_names(page)).to_have_count(4)

    calls_today = page.get_by_role("button", name=re.compile(r"^Calls today \d+"))
    expect(calls_today).to_have_accessible_name("Calls today 2")
    calls_today.click()
    expect(calls_today).to_have_attribute("aria-pressed", "true")
    expect(page).to_have_url(re.compile(r"today=1"))
    expect(_names(page)).to_have_text([f"Early {tag}", f"Late {tag}"])
    _no_axe(page, f"calls today at {page.viewport_size}")

    if phone:
        page.get_by_text("Filters", exact=True).click()
        page.get_by_label("Sort by").select_option(label="Call, latest first")
    else:
        header = page.get_by_role("columnheader", name="Call")
        header.get_by_role("button").click()
        expect(header).to_have_attribute("aria-sort", "ascending")
        header.get_by_role("button").click()
        expect(header).to_have_attribute("aria-sort", "descending")
    expect(page).to_have_url(re.compile(r"sort=-call"))
    expect(_names(page)).to_have_text([f"Late {tag}", f"Early {tag}"])

    page.reload()
    expect(_names(page)).to_have_text([f"Late {tag}", f"Early {tag}"])
    expect(calls_today).to_have_attribute("aria-pressed", "true")
    page.go_back()
    expect(_names(page)).to_have_text([f"Early {tag}", f"Late {tag}"])
    _no_axe(page, f"sorted at {page.viewport_size}")

    calls_today.click()  # off: New, overdue first
    expect(calls_today).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_role("button", name=re.compile(r"^New \d+"))).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(_names(page)).to_have_text([f"Late {tag}"])
    assert csp == []
