"""A customer's visit in Chromium at 1280 and 375 px: My account shows their quote requests
with who at RCX answers each, and their plan with its trial and a way to change it; the
pricing page's plan buttons set a plan after a confirmation step when signed in (the
loop back to the home page is gone) and still open registration when signed out; the
quote form starts with the customer's details; registration's mobile number says what it
expects and takes it as people type it. axe finds nothing on the pages shown."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine
from sqlmodel import Session

from rcxsite.accounts.plans import long_date
from rcxsite.content import routes
from rcxsite.content.pricing import PLANS
from rcxsite.models import StaffMember, utcnow
from rcxsite.pages.registration import MOBILE_HINT
from rcxsite.platform.settings import get_settings
from tests.support.accounts_ui import (
    PASSWORD,
    fill_registration,
    log_in_by_cookie,
    new_customer,
    open_registration,
    signed_in_customer,
    unique_email,
)
from tests.support.booking_site import rows_on
from tests.support.browser import axe_violations, open_tab
from tests.support.customers import mark_verified_on
from tests.support.live_server import LiveServer
from tests.support.quotes import add_quotes
from tests.support.staff import ENROLLED

GROWTH = next(plan for plan in PLANS if plan.name == "Growth")
STARTER = next(plan for plan in PLANS if plan.name == "Starter")
ACCOUNT_URL = re.compile(re.escape(routes.ACCOUNT.path) + "/?$")


def _no_axe(page: Page, what: str) -> None:
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    assert axe_violations(page) == [], what


def _fits_the_screen(page: Page) -> None:
    """Nothing wider than the window: no sideways scrolling on a phone."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _sales_member(site: LiveServer, name: str) -> tuple[int, str]:
    """A sales member on the live site's database, as an accepted invitation leaves one;
    their id and address."""
    email = f"{name.lower().replace(' ', '.')}.{secrets.token_hex(3)}@rcx.example"
    engine = create_engine(site.database_url)
    try:
        with Session(engine) as session:
            member = StaffMember(
                name=name, email=email, email_key=email, role="sales", password_hash=ENROLLED
            )
            session.add(member)
            session.commit()
            assert member.id is not None
            return member.id, email
    finally:
        engine.dispose()


@pytest.fixture
def signed_out(browser, live_site: LiveServer, any_page: Page) -> Iterator[Page]:
    """A second tab, of a browser where nobody is signed in, at the same width."""
    with open_tab(browser, live_site, any_page.viewport_size) as tab:
        yield tab


def test_my_account_lists_the_requests_newest_first_with_who_answers_each(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    email = new_customer(live_site.url, "daily")
    mark_verified_on(live_site, email)
    owner_id, owner_email = _sales_member(live_site, "Sam Sales")
    now = utcnow()
    add_quotes(
        [
            {
                "email": email,
                "service": "web-development",
                "status": "contacted",
                "owner_id": owner_id,
                "created_at": now - timedelta(days=2),
                "call_date": (now + timedelta(days=7)).date(),
            },
            {
                "email": email.upper(),
                "service": "devops",
                "created_at": now - timedelta(hours=1),
                "call_date": (now + timedelta(days=7)).date(),
            },
        ],
        database_url=live_site.database_url,
    )
    log_in_by_cookie(page, live_site.url, email)

    page.goto(routes.ACCOUNT.path)

    table = page.get_by_role("table", name="Your quote requests")
    expect(table.get_by_role("columnheader", name="Your contact")).to_be_visible()
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(2)
    newest, older = rows.nth(0), rows.nth(1)
    for text in ("DevOps", "Received", "Our sales team"):
        expect(newest).to_contain_text(text)
    sales = get_settings().sales_email
    expect(newest.get_by_role("link", name=sales)).to_have_attribute("href", f"mailto:{sales}")
    for text in ("Web Development", "In progress", "Sam Sales"):
        expect(older).to_contain_text(text)
    expect(older.get_by_role("link", name=owner_email)).to_have_attribute(
        "href", f"mailto:{owner_email}"
    )
    # The calls to come are still listed where they were.
    expect(page.get_by_role("heading", name="Upcoming calls")).to_be_visible()
    _fits_the_screen(page)
    _no_axe(page, "My account with quote requests")


def test_signed_in_choosing_a_plan_confirms_it_and_my_account_shows_it(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    signed_in_customer(page, live_site.url, "plan")
    page.goto(routes.ACCOUNT.path)
    expect(page.get_by_text("You have not chosen a plan yet.")).to_be_visible()
    page.get_by_role("link", name="Pick a plan").click()
    expect(page).to_have_url(re.compile(re.escape(routes.PRICING.path) + "/?$"))

    card = page.locator(f"#plan-{GROWTH.id}")
    # One action a card: the billing is the page's switch, the trial the step's.
    expect(card.get_by_role("button")).to_have_count(1)
    card.get_by_role("button", name="Choose plan").click()

    step = card.get_by_role("region", name=f"Confirm the {GROWTH.name} plan")
    expect(step.get_by_role("heading", name=f"Confirm the {GROWTH.name} plan")).to_be_focused()
    expect(page).to_have_url(re.compile(re.escape(routes.PRICING.path) + "/?$"))  # no loop
    ends = long_date(utcnow() + timedelta(days=GROWTH.trial_days))
    expect(step.get_by_role("radio", name=re.compile("^Monthly"))).to_be_checked()
    trial = step.get_by_role("checkbox", name=f"Start with a 14-day free trial, until {ends}")
    expect(trial).to_be_checked()
    _fits_the_screen(page)
    _no_axe(page, "pricing with the confirmation step")

    step.get_by_role("radio", name=re.compile("^Yearly")).check()
    step.get_by_role("button", name="Confirm plan").click()

    message = step.get_by_role("status")
    expect(message).to_have_text(f"Your plan is now Growth, yearly, free trial until {ends}.")
    expect(message).to_be_focused()
    # The card says it is theirs now (and says so again on the page's next load).
    expect(card.get_by_text(f"Your plan: free trial until {ends}")).to_be_visible()
    expect(step.get_by_role("link", name="See your plan in My account")).to_have_attribute(
        "href", routes.ACCOUNT.path
    )
    page.reload()
    expect(card.get_by_text(f"Your plan: free trial until {ends}")).to_be_visible()
    expect(page.locator(".plan-current")).to_have_count(1)
    page.goto(routes.ACCOUNT.path)
    expect(page).to_have_url(ACCOUNT_URL)
    overview = page.get_by_role("region", name="Overview")
    expect(overview).to_contain_text("Growth plan (Yearly, free trial)")
    expect(overview).to_contain_text(f"Your free trial ends on {ends}.")
    expect(overview.get_by_role("link", name="Change plan")).to_have_attribute(
        "href", routes.PRICING.path
    )
    expect(overview.get_by_text("You have not chosen a plan yet.")).to_have_count(0)
    _no_axe(page, "My account with a plan")


def _pay_yearly(page: Page) -> None:
    billing = page.get_by_role("group", name="Billing")
    billing.get_by_role("radio", name=re.compile("^Yearly")).check()
    for plan in PLANS:
        prices = page.locator(f"#plan-{plan.id} .price")
        expect(prices.filter(visible=True)).to_have_text(f"£{plan.yearly_price:,} per year")


def test_cancel_closes_the_step_and_gives_focus_back_and_nothing_changes(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    signed_in_customer(page, live_site.url, "cancel")
    page.goto(routes.PRICING.path)
    card = page.locator(f"#plan-{STARTER.id}")
    button = card.get_by_role("button", name="Choose plan")
    _pay_yearly(page)

    button.click()
    step = card.get_by_role("region", name=f"Confirm the {STARTER.name} plan")
    expect(step.get_by_role("radio", name=re.compile("^Yearly"))).to_be_checked()
    expect(step.get_by_role("checkbox")).to_be_checked()
    step.get_by_role("button", name="Cancel").click()

    expect(step).to_have_count(0)
    expect(button).to_be_focused()
    page.goto(routes.ACCOUNT.path)
    expect(page.get_by_text("You have not chosen a plan yet.")).to_be_visible()


def test_signed_out_a_plan_button_still_opens_registration_with_the_plan(
    any_page: Page,
) -> None:
    page = any_page
    page.goto(routes.PRICING.path)

    _pay_yearly(page)
    page.locator(f"#plan-{GROWTH.id}").get_by_role("button", name="Choose plan").click()

    expect(page).to_have_url(
        re.compile(
            rf"{routes.LOG_IN.path}/?\?ProjectId={GROWTH.project_id}"
            rf"&SubscriptionPlanId={GROWTH.id}&PlanDurationId=2&IsTrial=true$"
        )
    )
    form = page.get_by_role("form", name="Register")
    expect(form.get_by_role("status")).to_contain_text(f"{GROWTH.name} plan")


def test_the_quote_form_starts_with_the_customers_details_and_they_can_change_them(
    any_page: Page, signed_out: Page, live_site: LiveServer
) -> None:
    page = any_page
    email = signed_in_customer(page, live_site.url, "quote")

    page.goto(routes.QUOTE.path)

    form = page.get_by_role("form", name="Request a quote")
    expect(form.get_by_label("Name")).to_have_value("Test Customer")
    expect(form.get_by_label("Work email")).to_have_value(email)
    expect(form.get_by_label("Company")).to_have_value("Acme Ltd")
    expect(form.get_by_label("Phone (optional)")).to_have_value("0123456789")
    form.get_by_label("Name").fill("Someone Else")
    expect(form.get_by_label("Name")).to_have_value("Someone Else")
    _no_axe(page, "the quote form, filled in")

    signed_out.goto(routes.QUOTE.path)
    other = signed_out.get_by_role("form", name="Request a quote")
    for label in ("Name", "Work email", "Company", "Phone (optional)"):
        expect(other.get_by_label(label)).to_have_value("")


def test_registration_says_what_the_mobile_number_needs_and_takes_it_with_spaces(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    form = open_registration(page)
    mobile = form.get_by_label("Mobile number", exact=True)
    expect(form.get_by_text(MOBILE_HINT)).to_be_visible()
    expect(mobile).to_have_attribute(
        "aria-describedby", re.compile(r"\bregister-MobileNumber-hint\b")
    )
    expect(mobile).to_have_accessible_description(re.compile(r"^10 digits"))
    _no_axe(page, "registration with the mobile number's hint")

    email = unique_email("mobile")
    fill_registration(
        form,
        user_name="Spaced Digits",
        email=email,
        mobile="7700 900 12",
        password=PASSWORD,
        company="Spaces Ltd",
        location="Leeds",
    )
    form.get_by_role("button", name="Register").click()
    expect(form.get_by_text("Invalid mobile number", exact=True)).to_be_visible()
    expect(mobile).to_have_accessible_description(re.compile(r"10 digits.*Invalid mobile number"))

    fill_registration(form, mobile="7700 900 123")
    form.get_by_role("button", name="Register").click()

    expect(page.get_by_role("alertdialog")).to_contain_text("Registration successful!")
    assert rows_on(
        live_site, "SELECT mobile_number FROM customer WHERE email_key = :key", key=email.lower()
    ) == [("7700900123",)]


def test_my_accounts_mobile_number_has_the_same_hint_and_rule(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    signed_in_customer(page, live_site.url, "mobile-edit")
    page.goto(routes.ACCOUNT.path)
    form = page.get_by_role("form", name="Edit details")
    mobile = form.get_by_label("Mobile number", exact=True)
    expect(mobile).to_have_accessible_description(re.compile(r"^10 digits"))

    mobile.fill("(0712) 345-678")
    form.get_by_role("button", name="Save details").click()

    expect(form.get_by_text("Your details have been saved.")).to_be_visible()
    expect(page.get_by_role("region", name="Overview")).to_contain_text("0712345678")
