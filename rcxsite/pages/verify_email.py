"""/verify-email/{token}: the answer to the link registration mails."""

from __future__ import annotations

import reflex as rx

from rcxsite.accounts.inputs import VERIFY_LINK_HELP, VERIFY_LINK_USED
from rcxsite.accounts.verification import EMAIL_VERIFIED
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.state.login import log_in_path
from rcxsite.state.verify_email import VerifyEmailState

VERIFYING = "Verifying your link..."


def _to_account() -> rx.Component:
    return rx.el.p(
        nav_link("Go to My account", to=routes.ACCOUNT.path, class_name="button button-primary")
    )


def verify_email_page(route: routes.Route) -> rx.Component:
    return rx.el.div(
        rx.el.h1(route.title, class_name="account-title"),
        rx.match(
            VerifyEmailState.status,
            (
                "verified",
                rx.el.div(
                    rx.el.p(EMAIL_VERIFIED, role="status", class_name="form-message form-success"),
                    _to_account(),
                    class_name="account-closed",
                ),
            ),
            # The login page returns only to pages without a token in their path (a token
            # must not reach the login page's state): the login in this tab verifies the
            # link (by its digest, LoginState) and returns to My account, which says so.
            (
                "log_in",
                rx.el.div(
                    rx.el.p(VerifyEmailState.message, role="status", class_name="form-message"),
                    rx.el.p(
                        nav_link(
                            "Log in to verify",
                            to=log_in_path(routes.ACCOUNT.path),
                            class_name="button button-primary",
                        )
                    ),
                    class_name="account-closed",
                ),
            ),
            (
                "invalid",
                rx.el.div(
                    rx.el.div(
                        rx.el.p(VERIFY_LINK_USED, class_name="form-message form-error"),
                        rx.el.p(VERIFY_LINK_HELP),
                        role="alert",
                    ),
                    _to_account(),
                    class_name="account-closed",
                ),
            ),
            (
                "failed",
                rx.el.div(
                    rx.el.p(
                        VerifyEmailState.message, role="alert", class_name="form-message form-error"
                    ),
                    class_name="account-closed",
                ),
            ),
            rx.el.p(VERIFYING, role="status", class_name="account-intro"),
        ),
        class_name="account-page page-width",
    )


ON_LOAD: dict[routes.RouteKind, list[rx.EventHandler]] = {"verify_email": [VerifyEmailState.verify]}
