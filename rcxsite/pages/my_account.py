"""/account: overview, details, password, sign-ins, data and deletion (My account)."""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from rcxsite.accounts.inputs import ChangePasswordInput, DeleteAccountInput, ProfileInput
from rcxsite.components.calendar_actions import join_link
from rcxsite.components.form_fields import (
    ModelFields,
    action_button,
    form,
    status_message,
)
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.pages.registration import mobile_field
from rcxsite.state import messages as msg
from rcxsite.state.my_account import AccountState

EMAIL_NOT_VERIFIED = "Email not verified"
QUOTES_NEED_VERIFICATION = "Verify your email address to see the quote requests sent from it."
CALLS_NEED_VERIFICATION = "Calls booked with this address show here once it is verified."


def _panel(heading: str, panel_id: str, *children: rx.Component) -> rx.Component:
    return rx.el.section(
        rx.el.h2(heading, id=f"{panel_id}-heading", class_name="account-panel-title"),
        *children,
        class_name="account-panel",
        aria_labelledby=f"{panel_id}-heading",
    )


def _button(
    text: str, busy_text: str, action: str, *, kind: str = "primary", **props
) -> rx.Component:
    busy = AccountState.busy == action
    return rx.el.button(
        rx.cond(busy, busy_text, text),
        disabled=AccountState.busy != "",
        class_name=f"button button-{kind} account-button",
        **props,
    )


def _form(name: str, *children: rx.Component, on_submit: rx.EventHandler) -> rx.Component:
    """An account form: uncontrolled fields, remounted with the stored values after a
    change (`form_version`), checked by the server rather than the browser."""
    return form(
        *children,
        key=AccountState.form_version.to_string(),
        on_submit=on_submit,
        class_name="auth-form",
        aria_label=name,
        failure=msg.SOMETHING_WENT_WRONG,
    )


def _outcome(message: rx.Var[str], failed: rx.Var[bool]) -> rx.Component:
    return rx.cond(
        failed, status_message(message, kind="error"), status_message(message, kind="success")
    )


def _fact(term: str, value: rx.Var[str] | str) -> rx.Component:
    return rx.el.div(rx.el.dt(term), rx.el.dd(value), class_name="account-fact")


def _plan() -> rx.Component:
    return rx.cond(
        AccountState.plan_name != "",
        rx.fragment(
            rx.el.p(
                rx.el.strong(AccountState.plan_name),
                " plan",
                rx.cond(
                    AccountState.plan_terms != "", rx.el.span(" (", AccountState.plan_terms, ")")
                ),
                class_name="account-plan",
            ),
            rx.cond(AccountState.trial_note != "", rx.el.p(AccountState.trial_note)),
            rx.el.p(nav_link("Change plan", to=routes.PRICING.path)),
        ),
        rx.el.p(
            "You have not chosen a plan yet. ",
            nav_link("Pick a plan", to=routes.PRICING.path),
            class_name="account-plan",
        ),
    )


def _listing(
    items: ArrayVar[list[dict[str, str]]],
    *,
    caption: str,
    columns: tuple[str, ...],
    row: Callable[[ObjectVar[dict[str, str]]], rx.Component],
    none_yet: str,
    link: tuple[str, str],
    needs_verification: str,
) -> rx.Component:
    """A table of the customer's own items; under it, until the address is verified, why
    it is empty, else a link to make the first."""
    return rx.cond(
        items.length() > 0,
        rx.el.table(
            rx.el.caption(caption),
            rx.el.thead(rx.el.tr(*[rx.el.th(name, scope="col") for name in columns])),
            rx.el.tbody(rx.foreach(items, row)),
            class_name="account-table",
        ),
        rx.cond(
            AccountState.email_verified,
            rx.el.p(none_yet + " ", nav_link(link[0], to=link[1])),
            rx.el.p(needs_verification),
        ),
    )


def _quote_row(quote: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.el.tr(
        rx.el.td(quote["date"]),
        rx.el.td(quote["service"]),
        rx.el.td(quote["status"]),
        rx.el.td(
            rx.el.div(quote["contact"]),
            # Its own line, wrapped anywhere: an address does not widen the table past a
            # phone's screen.
            rx.el.div(
                rx.el.a(quote["contact_email"], href=quote["contact_href"]),
                class_name="account-note",
            ),
        ),
    )


def _quotes() -> rx.Component:
    return _listing(
        AccountState.quotes,
        caption="Your quote requests",
        columns=("Date", "Service", "Status", "Your contact"),
        row=_quote_row,
        none_yet="No quote requests from this email yet.",
        link=("Request a quote", routes.QUOTE.path),
        needs_verification=QUOTES_NEED_VERIFICATION,
    )


def _call_row(call: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.el.tr(
        rx.el.td(call["when"]),
        rx.el.td(call["host"]),
        rx.el.td(
            rx.cond(
                call["link"] != "",
                join_link(call["link"]),
                call["where"],
            )
        ),
        rx.el.td(
            action_button(
                "Manage",
                on_click=AccountState.manage_call(call["id"]),
                kind="text",
                aria_label="Manage your call on " + call["when"],
            )
        ),
    )


def _calls() -> rx.Component:
    """The calls to come, each with the link that reschedules or cancels it."""
    return _listing(
        AccountState.calls,
        caption="Your upcoming calls",
        columns=("When", "Host", "Where", "Change"),
        row=_call_row,
        none_yet="No upcoming calls with us.",
        link=("Book a call", routes.QUOTE.path),
        needs_verification=CALLS_NEED_VERIFICATION,
    )


def _verification() -> rx.Component:
    """Until the address is verified: says so, and mails the link again on request."""
    return rx.cond(
        AccountState.email_verified,
        rx.fragment(),
        # A fragment: its parts sit in the panel's own column, spaced like the rest.
        rx.fragment(
            rx.el.p(rx.el.strong(EMAIL_NOT_VERIFIED)),
            rx.el.p(
                "Open the link we mailed to ",
                rx.el.strong(AccountState.email),
                " to prove that the address is yours. Only then are the quote requests "
                "sent from it shown here.",
                class_name="account-note",
            ),
            _outcome(AccountState.verification_message, AccountState.verification_failed),
            _button(
                "Send the link again",
                "Sending...",
                "verification",
                kind="outline",
                type="button",
                on_click=AccountState.send_verification_again,
            ),
        ),
    )


def _overview() -> rx.Component:
    return _panel(
        "Overview",
        "overview",
        rx.el.dl(
            _fact("User name", AccountState.user_name),
            _fact("Email", AccountState.email),
            _fact("Mobile number", AccountState.mobile_number),
            _fact("Company", AccountState.company_name),
            _fact("Location", AccountState.location),
            _fact("Member since", AccountState.member_since),
            class_name="account-facts",
        ),
        _verification(),
        rx.el.h3("Plan", class_name="account-subtitle"),
        _plan(),
        rx.el.h3("Quote requests", class_name="account-subtitle"),
        _quotes(),
        rx.el.h3("Upcoming calls", class_name="account-subtitle"),
        _calls(),
    )


_DETAILS = {
    "UserName": ("User name", "text", "username", AccountState.user_name),
    "CompanyName": ("Company", "text", "organization", AccountState.company_name),
    "Location": ("Location", "text", "address-level2", AccountState.location),
}


def _detail(name: str) -> rx.Component:
    if name == "MobileNumber":
        return mobile_field(
            field_id="account-MobileNumber",
            error=AccountState.detail_errors[name],
            model=ProfileInput,
            default_value=AccountState.mobile_number,
        )
    label, input_type, autocomplete, value = _DETAILS[name]
    fields = ModelFields(ProfileInput, AccountState.detail_errors, "account")
    return fields.text(
        label, name, input_type=input_type, autocomplete=autocomplete, default_value=value
    )


def _details_form() -> rx.Component:
    return _panel(
        "Edit details",
        "details",
        _form(
            "Edit details",
            *[_detail(name) for name in ProfileInput.field_names()],
            rx.el.p(
                "Your email address identifies your account and cannot be changed here.",
                class_name="account-note",
            ),
            _outcome(AccountState.details_message, AccountState.details_failed),
            _button("Save details", "Saving...", "details", type="submit"),
            on_submit=AccountState.save_details,
        ),
    )


def _password_form() -> rx.Component:
    fields = ModelFields(ChangePasswordInput, AccountState.password_errors, "account")
    names = (
        ("CurrentPassword", "Current password", "current-password"),
        ("NewPassword", "New password", "new-password"),
        ("ConfirmPassword", "Confirm new password", "new-password"),
    )
    return _panel(
        "Change password",
        "password",
        _form(
            "Change password",
            *[
                fields.password(label, name, autocomplete=complete)
                for name, label, complete in names
            ],
            _outcome(AccountState.password_message, AccountState.password_failed),
            _button("Change password", "Changing...", "password", type="submit"),
            on_submit=AccountState.change_password,
        ),
    )


def _sessions_and_data() -> rx.Component:
    return _panel(
        "Sign-ins and your data",
        "data",
        rx.el.p(
            "Lost a phone or used a shared computer? End every sign-in of your account, "
            "this one included."
        ),
        _button(
            "Sign out everywhere",
            "Signing out...",
            "sessions",
            kind="outline",
            type="button",
            on_click=AccountState.sign_out_everywhere,
        ),
        rx.el.p(
            "Take a copy of everything we keep about your account: your details, your "
            "quote requests and your sign-ins, as a JSON file."
        ),
        _button(
            "Download my data",
            "Preparing...",
            "export",
            kind="outline",
            type="button",
            on_click=AccountState.download_data,
        ),
        status_message(AccountState.data_message, kind="error"),
    )


def _delete_form() -> rx.Component:
    return _panel(
        "Delete account",
        "delete",
        _form(
            "Delete account",
            rx.el.p(
                "This removes your account and signs you out everywhere. Quote requests "
                "you sent stay with our sales team so that they can answer them."
            ),
            ModelFields(DeleteAccountInput, AccountState.delete_errors, "account").password(
                "Password", "Password", field_id="account-delete-password"
            ),
            rx.el.div(
                rx.el.label(
                    rx.el.input(
                        type="checkbox",
                        name="Confirm",
                        id="account-delete-confirm",
                        aria_describedby="account-delete-confirm-error",
                        aria_invalid=rx.cond(
                            AccountState.delete_errors["Confirm"] != "", "true", "false"
                        ),
                    ),
                    " I understand that my account will be deleted for good.",
                    class_name="account-check",
                ),
                rx.el.p(
                    AccountState.delete_errors["Confirm"],
                    id="account-delete-confirm-error",
                    class_name="field-error",
                    aria_live="polite",
                ),
                class_name="field",
            ),
            status_message(AccountState.delete_message, kind="error"),
            _button("Delete account", "Deleting...", "delete", kind="danger", type="submit"),
            on_submit=AccountState.delete_account,
        ),
    )


def account_page(route: routes.Route) -> rx.Component:
    return rx.el.div(
        rx.el.h1(route.title, class_name="account-title"),
        rx.match(
            AccountState.view,
            (
                "ready",
                rx.el.div(
                    rx.el.p(
                        "Signed in as ",
                        rx.el.strong(AccountState.email),
                        ".",
                        class_name="account-intro",
                    ),
                    rx.el.div(
                        _overview(),
                        _details_form(),
                        _password_form(),
                        _sessions_and_data(),
                        _delete_form(),
                        class_name="account-grid",
                    ),
                ),
            ),
            (
                "closed",
                rx.el.div(
                    rx.el.p(
                        AccountState.closed_message,
                        role="status",
                        class_name="form-message form-success",
                    ),
                    rx.el.p(nav_link("Back to the home page", to=routes.HOME.path)),
                    class_name="account-closed",
                ),
            ),
            rx.el.p("Loading your account...", role="status", class_name="account-intro"),
        ),
        class_name="account-page page-width",
    )


ON_LOAD: dict[routes.RouteKind, list[rx.EventHandler]] = {"account": [AccountState.load]}
