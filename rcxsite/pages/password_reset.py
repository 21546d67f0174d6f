"""/forgot-password and /authentication/reset-password/{token}."""

from __future__ import annotations

import reflex as rx

from rcxsite.accounts.inputs import LINK_INVALID, ForgotPasswordInput, ResetPasswordInput
from rcxsite.components.auth_card import auth_card
from rcxsite.components.form_fields import (
    form,
    password_field,
    result_dialog,
    status_message,
    submit_button,
    text_field,
)
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.core.forms import max_length
from rcxsite.state import messages as msg
from rcxsite.state.password_reset import ForgotPasswordState, ResetPasswordState


def forgot_password_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        auth_card(
            route.title,
            rx.el.p(
                "Enter the email address of your account and we will send you a link to "
                "choose a new password.",
                class_name="auth-intro",
            ),
            form(
                text_field(
                    "Email",
                    "email",
                    field_id="forgot-email",
                    input_type="email",
                    autocomplete="email",
                    error=ForgotPasswordState.email_error,
                    max_length=max_length(ForgotPasswordInput, "email"),
                ),
                submit_button("Send reset link", msg.SENDING, busy=ForgotPasswordState.busy),
                rx.el.p(
                    nav_link("Back to log in", to=routes.LOG_IN.path), class_name="auth-switch"
                ),
                on_submit=ForgotPasswordState.send_link,
                class_name="auth-form",
                aria_label="Request a reset link",
                failure=msg.SOMETHING_WENT_WRONG,
            ),
        ),
        result_dialog(
            open_=ForgotPasswordState.result != "",
            title="Password reset",
            message=ForgotPasswordState.result,
            on_ok=ForgotPasswordState.clear_result,
        ),
    )


def _reset_form() -> rx.Component:
    new_password_max = max_length(ResetPasswordInput, "NewPassword")
    return form(
        rx.el.p(
            "Choose a new password for ",
            rx.el.strong(ResetPasswordState.email),
            ".",
            class_name="auth-intro",
        ),
        password_field(
            "New password",
            "newPassword",
            field_id="reset-new",
            error=ResetPasswordState.new_password_error,
            autocomplete="new-password",
            max_length=new_password_max,
        ),
        password_field(
            "Confirm password",
            "confirmPassword",
            field_id="reset-confirm",
            error=ResetPasswordState.confirm_error,
            autocomplete="new-password",
            max_length=new_password_max,
        ),
        status_message(ResetPasswordState.error, kind="error"),
        submit_button("Reset password", msg.RESETTING, busy=ResetPasswordState.busy),
        on_submit=ResetPasswordState.reset_password,
        class_name="auth-form",
        aria_label="Reset password",
        failure=msg.RESET_BROKEN,
    )


def reset_password_page(route: routes.Route) -> rx.Component:
    status = ResetPasswordState.status
    return auth_card(
        route.title,
        rx.match(
            status,
            ("valid", _reset_form()),
            ("done", status_message(ResetPasswordState.notice, kind="success")),
            (
                "invalid",
                rx.el.div(
                    rx.el.h2(msg.LINK_INVALID_TITLE, class_name="auth-subtitle"),
                    rx.el.p(LINK_INVALID),
                    rx.el.p(
                        nav_link(
                            "Request a new reset link",
                            to=routes.FORGOT_PASSWORD.path,
                            class_name="button button-primary",
                        )
                    ),
                    role="alert",
                ),
            ),
            rx.el.p(msg.VERIFYING, role="status", class_name="auth-intro"),
        ),
    )


ON_LOAD: dict[routes.RouteKind, list[rx.EventHandler]] = {
    "reset_password": [ResetPasswordState.verify],
}
