"""The registration form of /log-in, shown in the login form's place."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars import Var

from rcxsite.accounts.inputs import RegistrationInput
from rcxsite.components.auth_card import switch_line
from rcxsite.components.form_fields import (
    ModelFields,
    field_error,
    form,
    result_dialog,
    submit_button,
)
from rcxsite.core.forms import FormInput, max_length
from rcxsite.models import MOBILE_NUMBER_LENGTH
from rcxsite.state import messages as msg
from rcxsite.state.login import LoginState
from rcxsite.state.registration import REGISTER_FORM_ID, RegistrationState

_REGISTER_LABELS = {
    "UserName": ("Username", "text", "username"),
    "EmailAddress": ("Email", "email", "email"),
    "CompanyName": ("Company name", "text", "organization"),
    "Location": ("Location", "text", "address-level2"),
}
# Said before anything is typed, so that nobody has to fail to learn the rule.
MOBILE_HINT = f"{MOBILE_NUMBER_LENGTH} digits, for example 98765 43210"


def mobile_field(
    *, field_id: str, error: Var[str], model: type[FormInput], **props: Any
) -> rx.Component:
    """The mobile number field of registration and My account: its hint under the label,
    read out with the field (`aria-describedby`) as its error is."""
    hint_id = f"{field_id}-hint"
    return rx.el.div(
        rx.el.label("Mobile number", html_for=field_id, class_name="field-label"),
        rx.el.p(MOBILE_HINT, id=hint_id, class_name="form-note"),
        rx.el.input(
            id=field_id,
            name="MobileNumber",
            type="tel",
            auto_complete="tel",
            class_name="field-input",
            aria_invalid=rx.cond(error != "", "true", "false"),
            aria_describedby=f"{hint_id} {field_id}-error",
            max_length=max_length(model, "MobileNumber"),
            **props,
        ),
        field_error(field_id, error),
        class_name="field",
    )


def register_form() -> rx.Component:
    fields = ModelFields(RegistrationInput, RegistrationState.field_errors, "register")

    def field(name: str) -> rx.Component:
        label, input_type, autocomplete = _REGISTER_LABELS[name]
        return fields.text(label, name, input_type=input_type, autocomplete=autocomplete)

    return form(
        rx.cond(
            LoginState.plan_summary != "",
            rx.el.p(LoginState.plan_summary, class_name="plan-note", role="status"),
        ),
        *[field(name) for name in ("UserName", "EmailAddress")],
        mobile_field(
            field_id="register-MobileNumber",
            error=RegistrationState.field_errors["MobileNumber"],
            model=RegistrationInput,
        ),
        fields.password("Password", "Password", autocomplete="new-password"),
        *[field(name) for name in ("CompanyName", "Location")],
        submit_button("Register", "Registering...", busy=RegistrationState.busy),
        switch_line("Already have an account?", "Log in", LoginState.show_mode("login")),
        id=REGISTER_FORM_ID,
        on_submit=RegistrationState.register,
        class_name="auth-form",
        aria_label="Register",
        failure=msg.REGISTER_BROKEN,
    )


def registration_dialog() -> rx.Component:
    return result_dialog(
        open_=RegistrationState.dialog_open,
        title=RegistrationState.dialog_title,
        message=RegistrationState.dialog_message,
        on_ok=RegistrationState.close_dialog,
    )
