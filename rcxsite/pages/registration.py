"""The registration form of /log-in, shown in the login form's place."""

from __future__ import annotations

import reflex as rx

from rcxsite.accounts.inputs import RegistrationInput
from rcxsite.components.auth_card import switch_line
from rcxsite.components.form_fields import (
    form,
    password_field,
    result_dialog,
    submit_button,
    text_field,
)
from rcxsite.forms import max_length
from rcxsite.state import messages as msg
from rcxsite.state.login import LoginState
from rcxsite.state.registration import REGISTER_FORM_ID, RegistrationState

_REGISTER_LABELS = {
    "UserName": ("Username", "text", "username"),
    "EmailAddress": ("Email", "email", "email"),
    "MobileNumber": ("Mobile number", "tel", "tel"),
    "CompanyName": ("Company name", "text", "organization"),
    "Location": ("Location", "text", "address-level2"),
}


def register_form() -> rx.Component:
    def field(name: str) -> rx.Component:
        label, input_type, autocomplete = _REGISTER_LABELS[name]
        return text_field(
            label,
            name,
            field_id=f"register-{name}",
            input_type=input_type,
            autocomplete=autocomplete,
            error=RegistrationState.field_errors[name],
            max_length=max_length(RegistrationInput, name),
        )

    return form(
        rx.cond(
            LoginState.plan_summary != "",
            rx.el.p(LoginState.plan_summary, class_name="plan-note", role="status"),
        ),
        *[field(name) for name in ("UserName", "EmailAddress", "MobileNumber")],
        password_field(
            "Password",
            "Password",
            field_id="register-Password",
            error=RegistrationState.field_errors["Password"],
            autocomplete="new-password",
            max_length=max_length(RegistrationInput, "Password"),
        ),
        *[field(name) for name in ("CompanyName", "Location")],
        submit_button("Register", "Registering...", busy=RegistrationState.busy),
        switch_line("Already have an account?", "Log in", LoginState.show_mode("login")),
        id=REGISTER_FORM_ID,
        on_submit=RegistrationState.register,
        no_validate=True,
        class_name="auth-form",
        aria_label="Register",
        custom_attrs={"data-failure": msg.REGISTER_BROKEN},
    )


def registration_dialog() -> rx.Component:
    return result_dialog(
        open_=RegistrationState.dialog_open,
        title=RegistrationState.dialog_title,
        message=RegistrationState.dialog_message,
        on_ok=RegistrationState.close_dialog,
    )
