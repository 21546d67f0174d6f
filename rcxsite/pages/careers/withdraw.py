"""/careers/withdraw/<token>: withdraw an application, after one confirmation."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.form_fields import action_button, status_message
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.state.careers.withdraw import WithdrawState

ON_LOAD: dict[routes.RouteKind, list[rx.EventHandler]] = {
    "withdraw_application": [WithdrawState.load]
}


def _ask() -> rx.Component:
    return rx.el.div(
        rx.el.p(
            "Your application for ",
            rx.el.strong(WithdrawState.opening_title),
            ", sent on ",
            WithdrawState.applied_on,
            ", and your CV will be erased at once. This cannot be undone; you are welcome "
            "to apply again later.",
            class_name="lead",
        ),
        status_message(WithdrawState.error, kind="error"),
        action_button(
            "Withdraw my application",
            on_click=WithdrawState.confirm,
            kind="primary",
            busy=WithdrawState.busy,
            busy_text="Withdrawing...",
        ),
        class_name="withdraw-ask",
    )


def _said(text: rx.Var[str] | str, kind: str) -> rx.Component:
    return rx.el.div(
        rx.el.p(text, class_name="lead", role="status" if kind == "done" else "alert"),
        rx.el.p(nav_link("See our open positions", to=routes.CAREERS.path), class_name="lead"),
    )


def withdraw_page(route: routes.Route) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h1(route.title, class_name="section-title"),
            rx.match(
                WithdrawState.status,
                ("ready", _ask()),
                ("done", _said(WithdrawState.notice, "done")),
                ("invalid", _said(WithdrawState.notice, "invalid")),
                rx.el.p("Finding your application...", role="status", class_name="lead"),
            ),
            class_name="page-width",
        ),
        class_name="section section-light",
    )
