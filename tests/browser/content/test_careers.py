"""Job seekers on /careers at 1280 and 375 px: the openings filtered by team and by place
of work (a link can name the filters), each opening's own page with its facts, what the
work is, what we look for and how we hire, and a way back; axe on each state shown."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from rcxsite.content import routes
from rcxsite.content.careers import OPENINGS
from tests.support.browser import axe_violations


def _titles(page: Page) -> list[str]:
    return page.locator("main article h3").all_inner_texts()


def test_openings_filtered_by_team_and_place_then_one_opening_s_page(any_page: Page) -> None:
    page = any_page
    page.goto(routes.CAREERS.path)
    status = page.get_by_role("status").filter(has_text="opening")
    expect(status).to_have_text(f"{len(OPENINGS)} openings")

    page.get_by_label("Team").select_option("Software Development")
    expect(status).to_have_text("2 openings")
    assert _titles(page) == ["Senior Python Engineer", "Graduate Software Engineer"]
    page.get_by_label("Where").select_option("Remote")
    expect(status).to_have_text("1 opening")
    assert _titles(page) == ["Senior Python Engineer"]
    page.get_by_label("Team").select_option("DevOps")
    expect(page.get_by_text("No openings match these filters.")).to_be_visible()
    assert axe_violations(page) == [], page.viewport_size

    page.goto(f"{routes.CAREERS.path}?team=UI%20UX&place=nowhere")
    expect(status).to_have_text("1 opening")
    expect(page.get_by_label("Team")).to_have_value("UI UX")
    expect(page.get_by_label("Where")).to_have_value("")  # not a place: ignored

    page.get_by_role("link", name="Product Designer", exact=True).click()
    expect(page).to_have_url(re.compile(r"/careers/product-designer/?$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Product Designer")
    facts = page.locator("main dl")
    expect(facts).to_contain_text("£500–£575 a day")
    expect(facts).to_contain_text("26 February 2027")
    for heading in ("What you will do", "What we look for", "How we hire"):
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
    page.get_by_role("link", name="Apply now").click()
    expect(page.get_by_role("form", name="Apply for Product Designer")).to_be_in_viewport()
    assert axe_violations(page) == [], page.viewport_size
    page.get_by_role("link", name="All open positions").click()
    expect(page).to_have_url(re.compile(r"/careers/?$"))
