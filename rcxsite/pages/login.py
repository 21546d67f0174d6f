"""/log-in: the login form, or the registration form in its place."""

from __future__ import annotations

import reflex as rx

from rcxsite.accounts.inputs import LoginInput
from rcxsite.components.auth_card import auth_card, switch_line
from rcxsite.components.form_fields import form, password_field, status_message, submit_button
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.core.forms import max_length
from rcxsite.pages.registration import register_form, registration_dialog
from rcxsite.state import messages as msg
from rcxsite.state.login import LoginState


def _login_form() -> rx.Component:
    return form(
        rx.el.div(
            rx.el.label("Email", html_for="login-email", class_name="field-label"),
            # Uncontrolled (the form sends its own values): a server round trip per keystroke
            # raced with typing. The key remounts it when the state prefills an address.
            rx.el.input(
                id="login-email",
                name="email",
                type="email",
                auto_complete="email",
                default_value=LoginState.email,
                key=LoginState.email,
                class_name="field-input",
                max_length=max_length(LoginInput, "UserName"),
                aria_invalid=rx.cond(LoginState.email_error != "", "true", "false"),
                aria_describedby="login-email-error",
            ),
            rx.el.p(LoginState.email_error, id="login-email-error", class_name="field-error"),
            class_name="field",
        ),
        password_field(
            "Password",
            "password",
            field_id="login-password",
            error=LoginState.password_error,
            max_length=max_length(LoginInput, "Password"),
        ),
        rx.el.p(
            nav_link("Forgot password?", to=routes.FORGOT_PASSWORD.path), class_name="auth-aside"
        ),
        status_message(LoginState.error, kind="error"),
        status_message(LoginState.notice, kind="success"),
        submit_button("Log in", msg.LOGGING_IN, busy=LoginState.busy),
        switch_line("New to RCX?", "Create an account", LoginState.show_mode("register")),
        on_submit=LoginState.log_in,
        class_name="auth-form",
        aria_label="Log in",
        failure=msg.LOGIN_BROKEN,
    )


def log_in_page(route: routes.Route) -> rx.Component:
    registering = LoginState.mode == "register"
    return rx.fragment(
        auth_card(
            rx.cond(registering, "Create your account", route.title),
            rx.cond(registering, register_form(), _login_form()),
        ),
        registration_dialog(),
    )


ON_LOAD: dict[routes.RouteKind, list[rx.EventHandler]] = {"log_in": [LoginState.load_page]}
