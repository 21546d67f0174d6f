"""The account screens: log in / register, forgot password, reset password (spec §2, §4)."""

from __future__ import annotations

import reflex as rx

from rcxsite import routes
from rcxsite.accounts.inputs import (
    LINK_INVALID,
    ForgotPasswordInput,
    LoginInput,
    RegistrationInput,
    ResetPasswordInput,
)
from rcxsite.components.form_fields import (
    form,
    password_field,
    result_dialog,
    status_message,
    submit_button,
    text_field,
)
from rcxsite.components.media import image
from rcxsite.components.react import nav_link
from rcxsite.components.theme import LOGO_SRC
from rcxsite.forms import max_length
from rcxsite.state import messages as msg
from rcxsite.state.login import LoginState
from rcxsite.state.password_reset import ForgotPasswordState, ResetPasswordState
from rcxsite.state.registration import REGISTER_FORM_ID, RegistrationState


def _card(heading: rx.Component | str, *children: rx.Component) -> rx.Component:
    return rx.el.div(
        nav_link(image(LOGO_SRC, alt="RCX home", width=48, height=48), to=routes.HOME.path,
                 class_name="auth-logo"),
        rx.el.h1(heading, class_name="auth-title"),
        *children,
        class_name="auth-card",
    )


def _switch(text: str, action: str, mode: str) -> rx.Component:
    return rx.el.p(
        text, " ",
        rx.el.button(action, type="button", class_name="link-button",
                     on_click=LoginState.show_mode(mode)),
        class_name="auth-switch",
    )


def _login_form() -> rx.Component:
    return form(
        rx.el.div(
            rx.el.label("Email", html_for="login-email", class_name="field-label"),
            # Uncontrolled (the form sends its own values): a server round trip per keystroke
            # raced with typing. The key remounts it when the state prefills an address.
            rx.el.input(
                id="login-email", name="email", type="email", auto_complete="email",
                default_value=LoginState.email, key=LoginState.email, class_name="field-input",
                max_length=max_length(LoginInput, "UserName"),
                aria_invalid=rx.cond(LoginState.email_error != "", "true", "false"),
                aria_describedby="login-email-error",
            ),
            rx.el.p(LoginState.email_error, id="login-email-error", class_name="field-error"),
            class_name="field",
        ),
        password_field("Password", "password", field_id="login-password",
                       error=LoginState.password_error,
                       max_length=max_length(LoginInput, "Password")),
        rx.el.p(nav_link("Forgot password?", to=routes.FORGOT_PASSWORD.path),
                class_name="auth-aside"),
        status_message(LoginState.error, kind="error"),
        status_message(LoginState.notice, kind="success"),
        submit_button("Log in", msg.LOGGING_IN, busy=LoginState.busy),
        _switch("New to RCX?", "Create an account", "register"),
        on_submit=LoginState.log_in,
        no_validate=True,
        class_name="auth-form",
        aria_label="Log in",
        custom_attrs={"data-failure": msg.LOGIN_BROKEN},
    )


_REGISTER_LABELS = {
    "UserName": ("Username", "text", "username"),
    "EmailAddress": ("Email", "email", "email"),
    "MobileNumber": ("Mobile number", "tel", "tel"),
    "CompanyName": ("Company name", "text", "organization"),
    "Location": ("Location", "text", "address-level2"),
}


def _register_form() -> rx.Component:
    def field(name: str) -> rx.Component:
        label, input_type, autocomplete = _REGISTER_LABELS[name]
        return text_field(label, name, field_id=f"register-{name}", input_type=input_type,
                          autocomplete=autocomplete, error=RegistrationState.field_errors[name],
                          max_length=max_length(RegistrationInput, name))

    return form(
        rx.cond(
            LoginState.plan_summary != "",
            rx.el.p(LoginState.plan_summary, class_name="plan-note", role="status"),
        ),
        *[field(name) for name in ("UserName", "EmailAddress", "MobileNumber")],
        password_field("Password", "Password", field_id="register-Password",
                       error=RegistrationState.field_errors["Password"],
                       autocomplete="new-password",
                       max_length=max_length(RegistrationInput, "Password")),
        *[field(name) for name in ("CompanyName", "Location")],
        submit_button("Register", "Registering...", busy=RegistrationState.registering),
        _switch("Already have an account?", "Log in", "login"),
        id=REGISTER_FORM_ID,
        on_submit=RegistrationState.register,
        no_validate=True,
        class_name="auth-form",
        aria_label="Register",
        custom_attrs={"data-failure": msg.REGISTER_BROKEN},
    )


def log_in_page(route: routes.Route) -> rx.Component:
    registering = LoginState.mode == "register"
    return rx.fragment(
        _card(
            rx.cond(registering, "Create your account", route.title),
            rx.cond(registering, _register_form(), _login_form()),
        ),
        result_dialog(open_=RegistrationState.dialog_open, title=RegistrationState.dialog_title,
                      message=RegistrationState.dialog_message,
                      on_ok=RegistrationState.close_dialog),
    )


def forgot_password_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        _card(
            route.title,
            rx.el.p("Enter the email address of your account and we will send you a link to "
                    "choose a new password.", class_name="auth-intro"),
            form(
                text_field("Email", "email", field_id="forgot-email", input_type="email",
                           autocomplete="email", error=ForgotPasswordState.email_error,
                           max_length=max_length(ForgotPasswordInput, "email")),
                submit_button("Send reset link", msg.SENDING, busy=ForgotPasswordState.sending),
                rx.el.p(nav_link("Back to log in", to=routes.LOG_IN.path),
                        class_name="auth-switch"),
                on_submit=ForgotPasswordState.send_link,
                no_validate=True,
                class_name="auth-form",
                aria_label="Request a reset link",
                custom_attrs={"data-failure": msg.SOMETHING_WENT_WRONG},
            ),
        ),
        result_dialog(open_=ForgotPasswordState.result != "", title="Password reset",
                      message=ForgotPasswordState.result,
                      on_ok=ForgotPasswordState.clear_result),
    )


def _reset_form() -> rx.Component:
    new_password_max = max_length(ResetPasswordInput, "NewPassword")
    return form(
        rx.el.p("Choose a new password for ", rx.el.strong(ResetPasswordState.email), ".",
                class_name="auth-intro"),
        password_field("New password", "newPassword", field_id="reset-new",
                       error=ResetPasswordState.new_password_error,
                       autocomplete="new-password", max_length=new_password_max),
        password_field("Confirm password", "confirmPassword", field_id="reset-confirm",
                       error=ResetPasswordState.confirm_error, autocomplete="new-password",
                       max_length=new_password_max),
        status_message(ResetPasswordState.error, kind="error"),
        submit_button("Reset password", msg.RESETTING, busy=ResetPasswordState.resetting),
        on_submit=ResetPasswordState.reset_password,
        no_validate=True,
        class_name="auth-form",
        aria_label="Reset password",
        custom_attrs={"data-failure": msg.RESET_BROKEN},
    )


def reset_password_page(route: routes.Route) -> rx.Component:
    status = ResetPasswordState.status
    return _card(
        route.title,
        rx.match(
            status,
            ("valid", _reset_form()),
            ("done", status_message(ResetPasswordState.notice, kind="success")),
            ("invalid", rx.el.div(
                rx.el.h2(msg.LINK_INVALID_TITLE, class_name="auth-subtitle"),
                rx.el.p(LINK_INVALID),
                rx.el.p(nav_link("Request a new reset link", to=routes.FORGOT_PASSWORD.path,
                                 class_name="button button-primary")),
                role="alert",
            )),
            rx.el.p(msg.VERIFYING, role="status", class_name="auth-intro"),
        ),
    )


ON_LOAD = {
    "log_in": [LoginState.load_page],
    "reset_password": [ResetPasswordState.verify],
}
