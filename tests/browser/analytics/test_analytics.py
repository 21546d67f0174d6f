"""First-party analytics as a visitor's browser meets it: a campaign's visit counted page by
page and saved on the quote request it led to; visitors who asked not to be counted,
crawlers and automated browsers left out; nothing written to the device."""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from rcxsite.content import routes
from rcxsite.leads.service import RECEIVED
from rcxsite.platform.settings import get_settings
from tests.support.booking_site import nobody_takes_calls_on
from tests.support.browser import CHROME, DESKTOP, NOT_DRIVEN, PHONE, axe_violations, open_tab
from tests.support.live_server import ANALYTICS_HOLD_SECONDS, LiveServer
from tests.support.plain_http import fetch
from tests.support.quotes import add_quotes_on, fill_quote_form, next_weekday
from tests.support.smtp import Mailbox
from tests.support.staff_ui import signed_in_member
from tests.support.waiting import wait_for

GOOGLEBOT = (
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; "
    "+http://www.google.com/bot.html) Chrome/131.0.0.0 Safari/537.36"
)
GPC = "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', {get: () => true})"
DNT = "Object.defineProperty(Navigator.prototype, 'doNotTrack', {get: () => '1'})"


def _query(live_site: LiveServer, sql: str, *args: object) -> list[tuple]:
    with sqlite3.connect(live_site.database_url.removeprefix("sqlite:///")) as db:
        return db.execute(sql, args).fetchall()


def _views(live_site: LiveServer, campaign: str) -> list[str]:
    rows = _query(
        live_site, "SELECT path FROM analytics_view WHERE campaign = ? ORDER BY at, id", campaign
    )
    return [path for (path,) in rows]


@pytest.fixture
def person(browser, live_site: LiveServer) -> Iterator[Page]:
    """A tab as a person's browser opens it (a distinct visitor each test)."""
    agent = f"{CHROME} Edg/131.0.{uuid.uuid4().int % 10_000}"
    with open_tab(browser, live_site, user_agent=agent) as page:
        page.add_init_script(NOT_DRIVEN)
        yield page


def _walk(page: Page, campaign: str) -> None:
    """Lands from a newsletter, then moves through three pages inside the site."""
    page.goto(f"/?utm_source=newsletter&utm_medium=email&utm_campaign={campaign}")
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="About").click()
    expect(page).to_have_url(re.compile(r"/about$"))
    page.locator(".desktop-nav").get_by_role("link", name="Request a Quote").click()
    expect(page.get_by_role("form", name="Request a quote")).to_be_visible()


def _the_request_and_the_dashboard_show_it(
    browser, live_site: LiveServer, campaign: str, email: str
) -> None:
    [(request_id,)] = _query(live_site, "SELECT id FROM quote_request WHERE email = ?", email)
    with open_tab(browser, live_site) as staff:
        signed_in_member(staff, live_site, "sales")
        staff.goto(routes.staff_quote_path(request_id))
        details = staff.get_by_role("main")
        expect(details.get_by_text("newsletter (email)", exact=True)).to_be_visible()
        expect(details.get_by_text(campaign, exact=True)).to_be_visible()

        staff.goto(routes.STAFF_ANALYTICS.path)
        expect(staff.get_by_role("heading", name="Analytics", level=1)).to_be_visible()
        table = staff.get_by_role("region", name="Campaigns")
        row = table.get_by_role("row").filter(has=staff.get_by_role("button", name=campaign))
        cells = {
            name: row.locator(f'td[data-label="{name}"]')
            for name in ("Visitors", "Visits", "Views", "Quote requests")
        }
        for name, expected in (("Visitors", "1"), ("Visits", "1"), ("Views", "3")):
            expect(cells[name]).to_have_text(expected)
        expect(cells["Quote requests"]).to_have_text("1")

        row.get_by_role("button", name=campaign).click()
        chip = staff.get_by_role("button", name=f"Remove filter Campaign: {campaign}")
        expect(chip).to_be_visible()
        figures = staff.get_by_role("list", name="Figures")
        expect(figures.get_by_role("listitem").filter(has_text="Page views")).to_contain_text("3")
        chip.click()
        expect(chip).to_have_count(0)
        # Focus goes on to the figures, not lost with the chip.
        expect(staff.get_by_role("heading", name="Overview")).to_be_focused()
        expect(staff.get_by_role("status").filter(has_text="Showing")).to_have_text(
            "Showing last 30 days."
        )
    # The staff pages just seen were not counted.
    assert _query(live_site, "SELECT count(*) FROM analytics_view WHERE path LIKE '/staff%'") == [
        (0,)
    ]


def test_a_campaign_visit_is_counted_and_its_request_keeps_the_source(
    browser, person: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    nobody_takes_calls_on(live_site)
    campaign = f"autumn-{uuid.uuid4().hex[:8]}"
    _walk(person, campaign)
    form = person.get_by_role("form", name="Request a quote")
    expect(form.get_by_label("Preferred call date")).to_be_visible()
    email = f"{campaign}@client.example"
    fill_quote_form(
        form,
        name="Ann Lee",
        email=email,
        message="We need a customer portal with single sign-on.",
        day=next_weekday().isoformat(),
    )
    form.get_by_role("button", name="Book my call").click()
    expect(person.get_by_text(RECEIVED)).to_be_visible()
    # Sales hear of it as of any request (and no later test takes this mail for its own).
    mail = site_mailbox.wait_for(get_settings().sales_email, timeout=20)
    assert email in mail.get_body(preferencelist=("plain",)).get_content()

    assert wait_for(lambda: len(_views(live_site, campaign)) == 1)
    assert _views(live_site, campaign) == ["/"]  # the landing keeps the tags, not later views
    visits = _query(
        live_site,
        "SELECT entry_path, source, medium, views, device, browser FROM analytics_visit "
        "WHERE campaign = ?",
        campaign,
    )
    assert wait_for(
        lambda: (
            _query(live_site, "SELECT views FROM analytics_visit WHERE campaign = ?", campaign)
            == [(3,)]
        )
    ), visits
    assert _query(
        live_site,
        "SELECT source, medium, campaign, landing_page FROM quote_request WHERE email = ?",
        email,
    ) == [("newsletter", "email", campaign, "/")]
    _the_request_and_the_dashboard_show_it(browser, live_site, campaign, email)
    # Only what the site kept before it counted anything: the colour theme and the tab's
    # own token (Reflex's), which the counting reuses.
    assert person.evaluate("Object.keys(localStorage)") == ["theme"]
    assert person.evaluate("Object.keys(sessionStorage)") == ["token"]
    assert person.context.cookies() == []


@pytest.mark.parametrize("who", ["gpc", "dnt", "crawler", "headless"])
def test_visitors_who_must_not_be_counted_are_not(who: str, browser, live_site: LiveServer) -> None:
    options: dict[str, object] = {"user_agent": f"{CHROME} Who/{uuid.uuid4().hex[:6]}"}
    scripts = [NOT_DRIVEN]
    if who == "gpc":
        scripts.append(GPC)
    elif who == "dnt":
        scripts.append(DNT)
    elif who == "crawler":
        options["user_agent"] = GOOGLEBOT
    else:  # Playwright's own headless Chromium, as it comes
        options, scripts = {}, []
    campaign = f"{who}-{uuid.uuid4().hex[:8]}"
    with open_tab(browser, live_site, **options) as page:
        for script in scripts:
            page.add_init_script(script)
        _walk(page, campaign)
    # A counted visitor's first view is written within a second of the browser's word (the
    # test above); the control tab proves the counter ran after these had their chance,
    # and a first view that was not dropped would be written once its hold ran out.
    control = f"control-{uuid.uuid4().hex[:8]}"
    with open_tab(browser, live_site, user_agent=f"{CHROME} C/{control}") as page:
        page.add_init_script(NOT_DRIVEN)
        page.goto(f"/?utm_campaign={control}")
        assert wait_for(lambda: _views(live_site, control) == ["/"])
    assert not wait_for(
        lambda: _views(live_site, campaign) != [], timeout_s=ANALYTICS_HOLD_SECONDS + 2
    )


# The outermost elements that reach past the window's right edge, to say which overflowed.
_WIDER_THAN_THE_WINDOW = """() => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > innerWidth
        && !(e.parentElement && e.parentElement.getBoundingClientRect().right > innerWidth))
    .slice(0, 8)
    .map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().width)}px: `
        + e.textContent.slice(0, 80))"""


def test_the_dashboard_reads_at_desktop_and_phone_widths_without_axe_violations(
    browser, person: Page, live_site: LiveServer
) -> None:
    person.goto("/?utm_source=linkedin&utm_medium=social&utm_campaign=launch")
    assert wait_for(
        lambda: (
            _query(live_site, "SELECT count(*) FROM analytics_view WHERE campaign='launch'")
            != [(0,)]
        )
    )
    # More requests than visits (sent through the API, say): the funnel's bar for them
    # stays within its track.
    [(visits,)] = _query(live_site, "SELECT count(*) FROM analytics_visit")
    add_quotes_on(live_site, visits + 2, company="Funnel Test Ltd")
    with open_tab(browser, live_site) as staff:
        signed_in_member(staff, live_site, "admin")
        for viewport in (DESKTOP, PHONE):
            staff.set_viewport_size(viewport)
            staff.goto(routes.STAFF_ANALYTICS.path)
            expect(staff.get_by_role("region", name="Campaigns")).to_contain_text("launch")
            assert axe_violations(staff) == [], viewport
            # Nothing wider than the window but the tables' own scrolling regions.
            assert staff.evaluate("document.documentElement.scrollWidth") <= viewport["width"], (
                staff.evaluate(_WIDER_THAN_THE_WINDOW)
            )
        staff.get_by_label("Period").select_option("custom")
        staff.get_by_label("From", exact=True).fill("2026-11-10")
        staff.get_by_label("To", exact=True).fill("2026-11-01")
        staff.get_by_role("button", name="Apply").click()
        expect(staff.get_by_role("alert")).to_have_text(
            "The first date must not be after the last."
        )
        assert staff.page_errors == []  # type: ignore[attr-defined]


def test_the_view_is_in_the_address_and_requests_no_visit_brought_stay_apart(
    browser, live_site: LiveServer
) -> None:
    """Issue 45: a link opens a period and filter, the chart's metric and a filter change
    move the address (Back undoes them), and requests sent without a counted visit are
    "not attributed", out of the conversion rate (which stays within 100%)."""
    add_quotes_on(live_site, 6, company="Unattributed Ltd")
    with open_tab(browser, live_site) as staff:
        signed_in_member(staff, live_site, "admin")
        staff.goto(f"{routes.STAFF_ANALYTICS.path}?period=7d&source=nowhere")
        expect(staff.get_by_label("Period")).to_have_value("7d")
        chip = staff.get_by_role("button", name="Remove filter Source: nowhere")
        expect(chip).to_be_visible()

        metrics = staff.get_by_role("group", name="Chart shows")
        metrics.get_by_role("button", name="Visitors").click()
        expect(staff.get_by_role("heading", name="Visitors over time")).to_be_visible()
        expect(staff).to_have_url(re.compile(r"period=7d&source=nowhere&metric=visitors$"))
        chip.click()
        expect(chip).to_have_count(0)
        expect(staff).to_have_url(re.compile(r"analytics\?period=7d&metric=visitors$"))
        staff.go_back()
        expect(chip).to_be_visible()
        staff.go_back()
        expect(staff.get_by_role("heading", name="Page views over time")).to_be_visible()

        staff.goto(routes.STAFF_ANALYTICS.path)
        goals = staff.get_by_role("table", name="Goals")
        requests = goals.get_by_role("row").filter(has_text="Quote requests")
        # Loaded: the six requests sent without a counted visit are counted.
        expect(requests.get_by_role("cell").nth(2)).not_to_have_text(re.compile(r"^[0-5]$"))
        cells = requests.get_by_role("cell").all_inner_texts()
        assert int(cells[2].replace(",", "")) >= 6, cells  # not attributed
        assert cells[3] == "—" or float(cells[3].rstrip("%")) <= 100, cells
        for share in staff.locator(".analytics-step-count").all_inner_texts():
            assert all(int(n) <= 100 for n in re.findall(r"\((\d+)%\)", share)), share
        assert axe_violations(staff) == []


# What a chart library's code says of itself.
_CHART_CODE = re.compile(r"recharts|plotly|chart\.js|chartjs|apexcharts|echarts|d3-scale", re.I)


def test_no_public_page_loads_chart_code(live_site: LiveServer) -> None:
    """A chart library may only ever come with a staff page (the dashboard draws its chart
    with plain elements today): no public page's HTML or preloaded script names one."""

    def scripts_of(path: str) -> str:
        status, html = fetch(live_site.url + path)
        assert status == 200, path
        found = [html]
        for script in re.findall(r'<link rel="modulepreload" href="([^"]+)"', html):
            found.append(fetch(live_site.url + script)[1])
        return "\n".join(found)

    for route in routes.ROUTES:
        if route.layout != "staff" and route.public:
            assert not _CHART_CODE.search(scripts_of(route.path)), route.path
