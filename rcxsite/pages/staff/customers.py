"""/staff/customers and /staff/customers/<id>: customer support (admin and support)."""

from __future__ import annotations

import reflex as rx
from reflex.event import EventHandler

from rcxsite.components.form_fields import control_attrs, labelled, text_field
from rcxsite.components.staff_ui import data_table, notices, page_heading
from rcxsite.content.routes import Route
from rcxsite.core.permissions import Permission
from rcxsite.models import EMAIL_MAX
from rcxsite.pages.staff.shared import facts, link, staff_form
from rcxsite.staff.support import SEARCH_MAX
from rcxsite.staff.support_inputs import CONFIRM_EMAIL
from rcxsite.state.staff.access import role_may
from rcxsite.state.staff.customers import StaffCustomersState, StaffCustomerState


def _search_form() -> rx.Component:
    return staff_form(
        rx.el.div(
            labelled(
                "Search",
                "customer-search",
                rx.el.input(
                    type="search",
                    name="search",
                    default_value=StaffCustomersState.query,
                    max_length=SEARCH_MAX,
                    auto_complete="off",
                    **{
                        **control_attrs("customer-search", StaffCustomersState.search_error),
                        "aria_describedby": "customer-search-hint customer-search-error",
                    },
                ),
                StaffCustomersState.search_error,
            ),
            class_name="staff-form-row",
        ),
        rx.el.p(
            "Name, email or company.", id="customer-search-hint", class_name="field-hint staff-hint"
        ),
        submit="Search",
        on_submit=StaffCustomersState.search,
        role="search",
    )


def staff_customers_page(route: Route) -> rx.Component:
    """The newest customers, or those whose name, email or company holds the search."""
    return rx.el.div(
        page_heading("Customers"),
        notices(StaffCustomersState.error, StaffCustomersState.notice),
        _search_form(),
        data_table(
            "Customers",
            ("Name", "Email", "Company", "Member since", "Locked"),
            StaffCustomersState.rows,
            lambda r: (
                link(r["name"], r["path"]),
                r["email"],
                r["company"],
                r["member_since"],
                r["locked"],
            ),
            empty="No customers match.",
        ),
        class_name="staff-page",
    )


def _quotes() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Quote requests", class_name="staff-subtitle"),
        rx.cond(
            StaffCustomerState.quotes.length() > 0,
            rx.el.ul(
                rx.foreach(
                    StaffCustomerState.quotes,
                    lambda quote: rx.el.li(
                        link(
                            quote["sent"] + " · " + quote["service"] + " · " + quote["status"],
                            quote["path"],
                        )
                    ),
                ),
                class_name="staff-entries",
            ),
            rx.el.p(StaffCustomerState.no_quotes, class_name="staff-empty"),
        ),
        class_name="staff-section",
    )


def _button(text: str, event: EventHandler) -> rx.Component:
    return rx.el.button(text, type="button", class_name="button button-outline", on_click=event)


def _actions() -> rx.Component:
    state = StaffCustomerState
    return rx.el.section(
        rx.el.h2("Support actions", class_name="staff-subtitle"),
        rx.el.div(
            _button("Sign out everywhere", state.sign_out_everywhere),
            _button("Send password reset", state.send_password_reset),
            rx.cond(
                state.locked,
                _button("Unlock account", state.unlock),
                _button("Lock account", state.lock),
            ),
            class_name="staff-actions",
        ),
        staff_form(
            rx.el.h3("Delete the account for good", class_name="staff-subtitle"),
            rx.el.p(
                "Their sessions and reset links end and they are mailed; their quote "
                "requests stay. This cannot be undone.",
                class_name="staff-note",
            ),
            rx.el.div(
                text_field(
                    CONFIRM_EMAIL,
                    "email",
                    error=state.delete_error,
                    field_id="delete-email",
                    input_type="email",
                    max_length=EMAIL_MAX,
                ),
                class_name="staff-form-row",
            ),
            submit="Delete account",
            kind="danger",
            on_submit=state.delete,
            key=state.revision,
        ),
        class_name="staff-section",
    )


def staff_customer_page(route: Route) -> rx.Component:
    """One customer's card (never a password hash or token) and the support actions."""
    state = StaffCustomerState
    return rx.el.div(
        rx.cond(
            state.found,
            rx.fragment(
                page_heading(state.name),
                notices(state.error, state.notice),
                facts(state.facts),
                _quotes(),
                rx.cond(role_may(Permission.ACT_ON_CUSTOMERS), _actions()),
            ),
            rx.fragment(page_heading(route.title), notices(state.error, state.notice)),
        ),
        class_name="staff-page",
    )
