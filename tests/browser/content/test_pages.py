"""Every route of the route table renders in the production build, in its layout."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from rcxsite.content import routes
from rcxsite.content.careers import APPLY_EMAIL, OPENINGS
from rcxsite.content.company import EMAIL, MAP_URL, PHONE, PHONE_HREF
from rcxsite.content.proof import OFFICES
from rcxsite.meta.tags import page_title

CONCRETE = [route.path.replace("[token]", "some-token") for route in routes.ROUTES]


@pytest.mark.parametrize("path", CONCRETE)
def test_route_renders_its_heading_title_and_layout(page: Page, path: str) -> None:
    route = next(r for r in routes.ROUTES if r.path.replace("[token]", "some-token") == path)
    page.goto(path)
    if route.members_only:  # signed out: the login page, which comes back here after
        expect(page).to_have_url(re.compile(re.escape(f"{routes.LOG_IN.path}?next={path}")))
        route = routes.LOG_IN
    expect(page).to_have_title(page_title(route))
    expect(page.locator("h1")).to_have_count(1)
    expect(page.locator("h1")).to_be_visible()
    header = page.locator("header.site-header")
    if route.layout == "site":
        expect(header).to_be_visible()
        expect(page.locator("footer.site-footer")).to_be_visible()
    else:
        expect(page.locator("main")).to_be_visible()
        expect(header).to_have_count(0)
        expect(page.locator("footer")).to_have_count(0)
    assert page.page_errors == []


def test_unknown_path_shows_the_not_found_page_with_a_way_home(any_page: Page) -> None:
    any_page.goto("/no/such/page")
    expect(any_page.get_by_role("heading", level=1)).to_have_text("Page not found")
    any_page.get_by_role("link", name="Go to the home page").click()
    expect(any_page).to_have_url(re.compile(r"://[^/]+/$"))


@pytest.mark.parametrize("width,expected", [(1280, 0.90), (700, 0.95), (400, 0.98)])
def test_content_width_follows_the_screen_size(page: Page, width: int, expected: float) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(routes.ABOUT.path)
    box = page.locator("main .page-width").first.bounding_box()
    assert box is not None
    assert box["width"] == pytest.approx(width * expected, abs=2)


def test_the_company_contacts_on_about_are_tappable(any_page: Page) -> None:
    any_page.goto(routes.ABOUT.path)
    where = any_page.locator("main address")
    expect(where.get_by_role("link", name=EMAIL)).to_have_attribute("href", f"mailto:{EMAIL}")
    expect(where.get_by_role("link", name=PHONE)).to_have_attribute("href", PHONE_HREF)
    assert PHONE_HREF == "tel:+442079460321"
    expect(where.get_by_role("link", name="Map of the London office")).to_have_attribute(
        "href", MAP_URL
    )
    for office in OFFICES:
        place = where.filter(has_text=office.address)
        expect(place.get_by_role("link", name=office.phone)).to_have_attribute(
            "href", office.phone_href
        )
        expect(place.get_by_role("link", name=f"Map of the {office.city} office")).to_be_visible()


def test_each_opening_has_its_own_way_to_apply(any_page: Page) -> None:
    any_page.goto(routes.CAREERS.path)
    for opening in OPENINGS:
        apply = any_page.get_by_role("link", name=f"Apply for {opening.title}")
        page = routes.route_for("opening", opening.slug).path
        expect(apply).to_have_attribute("href", f"{page}#apply")
    # Questions still go to the recruiters' address.
    expect(any_page.get_by_role("link", name=APPLY_EMAIL)).to_have_attribute(
        "href", f"mailto:{APPLY_EMAIL}"
    )
    any_page.goto(routes.LIFE_AT.path)
    any_page.get_by_role("link", name="See our open positions").click()
    expect(any_page).to_have_url(re.compile(re.escape(routes.CAREERS.path) + "/?$"))


def test_check_lists_show_a_mark_that_is_not_read_out(page: Page) -> None:
    page.goto(routes.route_for("service", "devops").path)
    item = page.locator("main .check-list li").first
    expect(item).to_be_visible()
    mark = item.evaluate(
        "li => { const s = getComputedStyle(li, '::before');"
        " return [s.content, s.borderRightWidth, s.borderBottomWidth]; }"
    )
    assert mark == ['""', "2px", "2px"]  # drawn, with no text in it


def test_navigation_scrolls_to_the_top(page: Page) -> None:
    page.goto(routes.HOME.path)
    page.mouse.wheel(0, 5000)
    page.wait_for_function("window.scrollY > 500")
    page.locator("footer").get_by_role("link", name="About Us").click()
    expect(page).to_have_url(re.compile(re.escape(routes.ABOUT.path) + "/?$"))
    page.wait_for_function("window.scrollX === 0 && window.scrollY === 0")


# What a phone (375 x 812) shows before any scrolling: the heading's bottom, and at least
# this much of what follows the page's top (its hero, or the heading where there is none).
_CONTENT_SEEN_PX = 40
_FIRST_SCREEN = """() => {
  const h1 = document.querySelector("main h1");
  const top = h1.closest(".hero") || h1;
  const next = top.nextElementSibling || top.parentElement.nextElementSibling;
  return {
    heading: h1.getBoundingClientRect().bottom,
    next: next ? next.getBoundingClientRect().top : Infinity,
    screen: window.innerHeight,
  };
}"""


def test_a_phone_s_first_screen_shows_each_page_s_heading_and_its_start(phone: Page) -> None:
    late = []
    for route in routes.public_routes():
        phone.goto(route.path)
        seen = phone.evaluate(_FIRST_SCREEN)
        if seen["heading"] > seen["screen"] or seen["next"] > seen["screen"] - _CONTENT_SEEN_PX:
            late.append((route.path, seen))
    assert late == []


def test_the_home_page_is_short_on_a_phone_and_keeps_each_section_s_links(phone: Page) -> None:
    phone.goto(routes.HOME.path)
    assert phone.evaluate("document.documentElement.scrollHeight") < 4500
    main = phone.locator("main")
    for route in (*routes.menu_routes("services"), *routes.menu_routes("industry")):
        expect(main.get_by_role("link", name=route.text, exact=True)).to_be_visible()
    for text in ("All case studies", "More client stories", "Request a Quote"):
        expect(main.get_by_role("link", name=text).first).to_be_visible()
