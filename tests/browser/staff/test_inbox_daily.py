"""A salesperson's day in the inbox list, in Chromium at 1280 and 375 px: each request's
age and the "Overdue" flag with the New chip's count; a search that finds a request in
any status (a request rescued from spam, whichever chip was chosen before); the whole row
opening the request, by mouse and keyboard; several requests assigned and set to a status
at once, each change in the audit log; and support, who may not change requests, offered
no selection. axe and the Content-Security-Policy are checked on the states shown.

Requests are written into the live site's database with the ages a test needs (one a
week old is overdue whatever the day the test runs: a week holds five working days)."""

from __future__ import annotations

import re
import uuid
from datetime import date, timedelta
from typing import Any

from playwright.sync_api import Locator, Page, expect
from sqlalchemy import bindparam, create_engine, text

from rcxsite.content import routes
from rcxsite.models import utcnow
from rcxsite.staff.inbox_inputs import REASON_REQUIRED
from tests.support.browser import axe_violations
from tests.support.csp import watch_csp
from tests.support.live_server import LiveServer
from tests.support.quotes import add_quotes
from tests.support.staff_ui import signed_in_member

OLD = timedelta(days=8)


def _add(site: LiveServer, *rows: dict[str, Any]) -> list[int]:
    """Requests stored as the quote form stores them, with `rows`' names, statuses and
    ages (`age`: how long before now it arrived)."""
    return add_quotes(
        [
            {
                "name": row["name"],
                "email": f"daily.{uuid.uuid4().hex[:8]}@example.com",
                "company": row.get("company", "Daily Ltd"),
                "phone": "",
                "timeline": "asap",
                "message": "We need a new booking site.",
                "call_date": date.today() + timedelta(days=7),
                "status": row.get("status", "new"),
                "created_at": utcnow() - row.get("age", timedelta(hours=1)),
            }
            for row in rows
        ],
        database_url=site.database_url,
    )


def _answered(site: LiveServer, ids: list[int]) -> None:
    """Move requests out of New, so no overdue request is left for the tests that follow
    (the sign-in helper waits for a New chip that names none)."""
    engine = create_engine(site.database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                text("UPDATE quote_request SET status = 'contacted' WHERE id IN :ids").bindparams(
                    bindparam("ids", expanding=True)
                ),
                {"ids": ids},
            )
    finally:
        engine.dispose()


def _rows(page: Page) -> Locator:
    return page.get_by_role("table", name="Quote requests").locator("tbody tr")


def _row(page: Page, name: str) -> Locator:
    return _rows(page).filter(has=page.get_by_role("link", name=name, exact=True))


def _search(page: Page, text: str) -> None:
    search = page.get_by_label("Search", exact=True)
    search.fill(text)
    search.press("Enter")
    if text:  # the tab has moved to the search's address: its list is the one shown
        expect(page).to_have_url(re.compile(r"[?&]q="))


def _chip(page: Page, label: str) -> Locator:
    """A status chip ("New 12 · 3 overdue" is the New chip too)."""
    return page.get_by_role("button", name=re.compile(rf"^{label} \d+"))


def _no_axe(page: Page, what: str) -> None:
    expect(page.locator("h1")).to_be_visible()
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    assert axe_violations(page) == [], what


def test_ages_overdue_flags_and_the_new_chips_count(any_page: Page, live_site: LiveServer) -> None:
    page = any_page
    csp = watch_csp(page)
    # Signed in first: the sign-in helper waits for a New chip without overdue requests.
    signed_in_member(page, live_site, "sales")
    tag = f"Daily{uuid.uuid4().hex[:6]}"
    ids = _add(
        live_site,
        {"name": f"Olive {tag}", "age": OLD},
        {"name": f"Hugo {tag}", "age": timedelta(hours=2, minutes=10)},
        {"name": f"Carl {tag}", "age": OLD, "status": "contacted"},
    )
    try:
        _see_ages_and_overdue(page, tag)
    finally:
        _answered(live_site, ids)
    assert csp == []


def _see_ages_and_overdue(page: Page, tag: str) -> None:
    _search(page, tag)

    expect(_rows(page)).to_have_count(3)
    olive, hugo, carl = (_row(page, f"{who} {tag}") for who in ("Olive", "Hugo", "Carl"))
    expect(olive).to_contain_text("8 days")
    expect(olive.get_by_text("Overdue", exact=True)).to_be_visible()
    expect(hugo).to_contain_text("2 h")
    expect(hugo.get_by_text("Overdue", exact=True)).to_have_count(0)
    # Answered, however old: not overdue.
    expect(carl).to_contain_text("8 days")
    expect(carl.get_by_text("Overdue", exact=True)).to_have_count(0)
    # The chips count what the search finds; the overdue count is in the New chip's name.
    expect(page.get_by_role("button", name="New 2 · 1 overdue", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="All 3", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    _no_axe(page, f"inbox with an overdue request at {page.viewport_size}")


def test_the_whole_row_opens_the_request_by_mouse_and_keyboard(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    signed_in_member(page, live_site, "sales")
    tag = f"Row{uuid.uuid4().hex[:6]}"
    [quote_id] = _add(live_site, {"name": f"Rowena {tag}", "company": f"{tag} Bakery"})
    _search(page, tag)
    row = _row(page, f"Rowena {tag}")
    expect(row).to_have_count(1)
    # One link per row, named by the person: what a screen reader lists.
    expect(row.get_by_role("link")).to_have_count(1)
    expect(row.get_by_role("link")).to_have_accessible_name(f"Rowena {tag}")

    # A click on the company, far from the name, opens the request (a real click at that
    # point: the link lies over the row).
    company = row.locator("td[data-label='Company']")
    company.scroll_into_view_if_needed()  # on a phone the list starts below the fold
    box = company.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] - 4, box["y"] + box["height"] / 2)
    expect(page).to_have_url(re.compile(rf"{routes.staff_quote_path(quote_id)}/?$"))

    page.go_back()
    row = _row(page, f"Rowena {tag}")
    expect(row).to_have_count(1)
    # From the row's checkbox, Tab reaches the row's link, and Enter opens it.
    row.get_by_role("checkbox").focus()
    page.keyboard.press("Tab")
    expect(row.get_by_role("link")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"{routes.staff_quote_path(quote_id)}/?$"))


def test_a_rescued_spam_request_is_found_by_name_from_any_chip(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    csp = watch_csp(page)
    signed_in_member(page, live_site, "sales")
    tag = f"Rescue{uuid.uuid4().hex[:6]}"
    name = f"Rita {tag}"
    [quote_id] = _add(live_site, {"name": name, "status": "spam"})
    _add(live_site, {"name": f"Other {tag}", "status": "contacted"})

    # In the spam folder (the newest first), the member opens it and rescues it.
    _chip(page, "Spam").click()
    expect(_chip(page, "Spam")).to_have_attribute("aria-pressed", "true")
    _row(page, name).get_by_role("link").click()
    expect(page).to_have_url(re.compile(rf"{routes.staff_quote_path(quote_id)}/?$"))
    page.get_by_role("button", name="Not spam").click()
    expect(page.get_by_text("Moved back to New.")).to_be_visible()
    page.go_back()
    expect(page.get_by_role("heading", name="Quote requests")).to_be_visible()

    for chip in ("Spam", "Contacted", "New"):
        _search(page, "")
        _chip(page, chip).click()
        expect(_chip(page, chip)).to_have_attribute("aria-pressed", "true")
        # Typing a search starts from "All" (every status but spam).
        _search(page, name)
        expect(page.get_by_role("button", name=re.compile(r"^All 1$"))).to_have_attribute(
            "aria-pressed", "true"
        )
        expect(_rows(page)).to_have_count(1)
        expect(_row(page, name)).to_contain_text("New")
        expect(page.get_by_text("No quote requests match.")).to_have_count(0)

    # A chip chosen while searching narrows the search.
    _chip(page, "Contacted").click()
    expect(page.get_by_text("No quote requests match.")).to_be_visible()
    _no_axe(page, f"a search narrowed to nothing at {page.viewport_size}")
    assert csp == []


def test_several_requests_assigned_and_set_at_once_each_in_the_audit_log(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    csp = watch_csp(page)
    me = signed_in_member(page, live_site, "admin")
    tag = f"Bulk{uuid.uuid4().hex[:6]}"
    ids = _add(live_site, *({"name": f"{who} {tag}"} for who in ("Ann", "Ben", "Cat")))
    ann, ben, _ = ids
    _search(page, tag)
    expect(_rows(page)).to_have_count(3)
    selection = page.get_by_role("form", name="Change the selected requests")
    expect(selection).to_have_count(0)

    # "Select all on this page" ticks every row, and unticks them.
    select_all = page.get_by_role("checkbox", name="Select all on this page")
    select_all.click()
    expect(page.get_by_text("3 selected", exact=True)).to_be_visible()
    expect(select_all).to_be_checked()
    select_all.click()
    expect(selection).to_have_count(0)

    for who in ("Ann", "Ben"):
        box = page.get_by_role("checkbox", name=f"Select {who} {tag}")
        box.click()
        expect(box).to_be_checked()
    expect(page.get_by_text("2 selected", exact=True)).to_be_visible()
    _no_axe(page, f"two requests ticked at {page.viewport_size}")

    selection.get_by_role("button", name="Assign to me").click()
    expect(page.get_by_text(f"2 requests assigned to {me.name}.")).to_be_visible()
    for who in ("Ann", "Ben"):
        expect(_row(page, f"{who} {tag}")).to_contain_text(me.name)
    expect(_row(page, f"Cat {tag}")).to_contain_text("Unassigned")

    # Lost needs its reason, as on a request's own page.
    for who in ("Ann", "Ben"):
        page.get_by_role("checkbox", name=f"Select {who} {tag}").click()
    expect(page.get_by_text("2 selected", exact=True)).to_be_visible()
    selection.get_by_label("Set status").select_option("lost")
    selection.get_by_role("button", name="Apply to selected").click()
    expect(page.locator("#selection-reason-error")).to_have_text(re.compile(REASON_REQUIRED))
    _no_axe(page, f"a refused selection at {page.viewport_size}")
    selection.get_by_label("Reason").fill("Went with an agency in Leeds")
    selection.get_by_role("button", name="Apply to selected").click()
    expect(page.get_by_text("2 requests set to Lost.")).to_be_visible()
    for who in ("Ann", "Ben"):
        expect(_row(page, f"{who} {tag}")).to_contain_text("Lost")

    # Each request has its own audit entries, as if changed one by one.
    page.goto(routes.STAFF_AUDIT.path)
    audit = page.get_by_role("table", name="Audit entries").locator("tbody tr")
    # A cell's text runs into the next one's ("quote #2Unassigned"): no word boundary after the id.
    for quote_id in (ann, ben):
        for action in ("Owner changed", "Status changed"):
            expect(
                audit.filter(has_text=action).filter(
                    has_text=re.compile(rf"quote #{quote_id}(?!\d)")
                )
            ).to_have_count(1)
    assert csp == []


def test_support_reads_the_list_without_a_selection(any_page: Page, live_site: LiveServer) -> None:
    page = any_page
    signed_in_member(page, live_site, "support")
    tag = f"Support{uuid.uuid4().hex[:6]}"
    _add(live_site, {"name": f"Sue {tag}"})
    _search(page, tag)
    expect(_rows(page)).to_have_count(1)
    expect(page.get_by_role("checkbox")).to_have_count(0)
    expect(page.get_by_role("columnheader", name="Select")).to_have_count(0)
    expect(_row(page, f"Sue {tag}").get_by_role("link")).to_have_count(1)
    _no_axe(page, f"the list as support at {page.viewport_size}")


def test_the_address_holds_the_filter_a_link_opens_it_and_back_undoes_it(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    signed_in_member(page, live_site, "sales")
    tag = f"Linked{uuid.uuid4().hex[:6]}"
    name = f"Sid {tag}"
    _add(live_site, {"name": name, "status": "spam"})

    # A link to a view opens that view (it used to show New).
    page.goto(f"{routes.STAFF_INBOX.path}?status=spam&q={tag}")
    expect(_chip(page, "Spam")).to_have_attribute("aria-pressed", "true")
    expect(_rows(page)).to_have_count(1)
    expect(_row(page, name)).to_be_visible()

    # A chip moves the address along...
    _chip(page, "New").click()
    expect(page).to_have_url(re.compile(rf"{routes.STAFF_INBOX.path}/?\?status=new&q={tag}$"))
    expect(page.get_by_text("No quote requests match.")).to_be_visible()
    # ...and Back undoes it.
    page.go_back()
    expect(page).to_have_url(re.compile(rf"{routes.STAFF_INBOX.path}/?\?status=spam&q={tag}$"))
    expect(_chip(page, "Spam")).to_have_attribute("aria-pressed", "true")
    expect(_row(page, name)).to_be_visible()
