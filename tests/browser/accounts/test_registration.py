"""Registration on /log-in, with the plan context the pricing page carries."""

from __future__ import annotations

import re
import sqlite3

from playwright.sync_api import Page, expect

from rcxsite.content import routes
from rcxsite.content.pricing import PLANS
from tests.support.accounts_ui import (
    PASSWORD,
    fill_registration,
    log_in,
    new_customer,
    open_registration,
    register,
    unique_email,
)
from tests.support.live_server import LiveServer
from tests.support.smtp import Mailbox

REQUIRED = {
    "Username": "Username is required",
    "Email": "Email is required",
    "Mobile number": "Mobile number is required",
    "Password": "Password is required",
    "Company name": "Company name is required",
    "Location": "Location is required",
}


def _open_registration(page: Page):
    form = open_registration(page)
    expect(form).to_be_visible()
    return form


def _customer_row(live_site: LiveServer, email: str) -> tuple | None:
    path = live_site.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        return db.execute(
            "SELECT user_name, mobile_number, company_name, location, project_id, "
            "subscription_plan_id, plan_duration_id, is_trial FROM customer WHERE email = ?",
            (email,),
        ).fetchone()


def test_every_registration_rule_shows_its_message(any_page: Page) -> None:
    form = _open_registration(any_page)
    form.get_by_role("button", name="Register").click()
    for label, message in REQUIRED.items():
        expect(form.get_by_text(message, exact=True)).to_be_visible()
        expect(form.get_by_label(label, exact=True)).to_have_attribute("aria-invalid", "true")
    fill_registration(
        form,
        user_name="ab",
        email="not-an-email",
        mobile="12345",
        password="abc",
        company="Acme",
        location="Leeds",
    )
    form.get_by_role("button", name="Register").click()
    for message in (
        "Min 3 characters",
        "Invalid email",
        "Invalid mobile number",
        "Min 4 characters",
    ):
        expect(form.get_by_text(message, exact=True)).to_be_visible()
    expect(form.get_by_text("Company name is required")).to_have_count(0)
    # Nothing typed is lost.
    expect(form.get_by_label("Username")).to_have_value("ab")
    expect(form.get_by_label("Company name")).to_have_value("Acme")
    fill_registration(form, mobile="12345678901")
    form.get_by_role("button", name="Register").click()
    expect(form.get_by_text("Invalid mobile number", exact=True)).to_be_visible()


def test_registration_then_login(any_page: Page, live_site: LiveServer) -> None:
    page = any_page
    email = unique_email("new")
    form = _open_registration(page)
    fill_registration(
        form,
        user_name="Jane Doe",
        email=email,
        mobile="0712345678",
        password=PASSWORD,
        company="Doe & Co",
        location="Bristol",
    )
    form.get_by_role("button", name="Register").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Registration successful!")
    # Focus moves into the dialog.
    page.wait_for_function(
        "document.querySelector('[role=alertdialog]')?.contains(document.activeElement)"
    )
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    login = page.get_by_role("form", name="Log in")
    expect(login.get_by_label("Email")).to_have_value(email)
    assert _customer_row(live_site, email) == (
        "Jane Doe",
        "0712345678",
        "Doe & Co",
        "Bristol",
        None,
        None,
        None,
        0,
    )
    log_in(page, email)


def test_a_taken_address_gets_the_new_address_answer_and_its_owner_a_mail(
    page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    # No account-existence oracle: the form says what it says for a new address.
    email = new_customer(live_site.url, "taken")
    form = _open_registration(page)
    register(page, form, email=email.upper(), user_name="Someone")
    notice = site_mailbox.wait_for(email, timeout=20)
    assert "Someone tried to register" in notice["Subject"]


def test_pricing_plan_button_carries_the_plan_into_registration(
    page: Page, live_site: LiveServer
) -> None:
    plan = next(p for p in PLANS if p.highlighted)
    page.goto(routes.PRICING.path)
    page.locator(f"#plan-{plan.id}").get_by_role("button", name="Choose plan").click()
    expect(page).to_have_url(
        re.compile(
            rf"{routes.LOG_IN.path}/?\?ProjectId={plan.project_id}&SubscriptionPlanId={plan.id}"
            r"&PlanDurationId=\d+&IsTrial=true$"
        )
    )
    form = page.get_by_role("form", name="Register")
    expect(form.get_by_role("status")).to_contain_text(f"{plan.name} plan")
    email = unique_email("plan")
    register(page, form, email=email, user_name="Plan Buyer", company="Buyer Ltd", location="York")
    row = _customer_row(live_site, email)
    assert row is not None
    assert row[4:6] == (plan.project_id, plan.id) and row[6] is not None and row[7] == 1


def test_plan_query_parameters_open_registration(page: Page, live_site: LiveServer) -> None:
    plan = PLANS[0]
    page.goto(
        f"{routes.LOG_IN.path}?ProjectId={plan.project_id}&SubscriptionPlanId={plan.id}"
        "&PlanDurationId=2&IsTrial=false"
    )
    form = page.get_by_role("form", name="Register")
    expect(form.get_by_role("status")).to_have_text(
        f"You are registering for the {plan.name} plan (yearly)."
    )
    email = unique_email("query")
    register(page, form, email=email, user_name="Query Buyer", company="Query Ltd", location="Hull")
    assert _customer_row(live_site, email)[4:] == (plan.project_id, plan.id, 2, 0)
