"""/staff/log-in: an enrolled member's way into the back office (bare layout, noindex)."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.form_fields import (
    ModelFields,
    form,
    status_message,
    submit_button,
)
from rcxsite.content.routes import Route
from rcxsite.pages.staff.shared import code_field, entry_card
from rcxsite.staff.inputs import StaffSignInInput
from rcxsite.state.staff.sign_in import StaffSignInState


def staff_log_in_page(route: Route) -> rx.Component:
    errors = StaffSignInState.field_errors
    fields = ModelFields(StaffSignInInput, errors, "staff")
    return entry_card(
        "Staff sign-in",
        form(
            fields.text("Email", "email", input_type="email", autocomplete="username"),
            fields.password("Password", "password"),
            code_field(errors["code"], field_id="staff-code", model=StaffSignInInput),
            rx.el.p(
                "The 6-digit code from your authenticator app, or one of your recovery codes.",
                id="staff-code-hint",
                class_name="field-hint",
            ),
            rx.el.input(type="hidden", name="time_zone", id="staff-time-zone"),
            status_message(StaffSignInState.error, kind="error"),
            submit_button("Sign in", "Signing in…", busy=StaffSignInState.busy),
            on_submit=StaffSignInState.sign_in,
            class_name="auth-form",
            aria_label="Staff sign-in",
        ),
    )
