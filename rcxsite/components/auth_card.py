"""The card the account screens stand in (log in, register, forgot and reset password),
and its line that switches to the other form."""

from __future__ import annotations

import reflex as rx
from reflex.event import EventSpec

from rcxsite.components.media import image
from rcxsite.components.react import nav_link
from rcxsite.components.theme import LOGO_SRC
from rcxsite.content import routes


def auth_card(heading: rx.Component | str, *children: rx.Component) -> rx.Component:
    return rx.el.div(
        nav_link(
            image(LOGO_SRC, alt="RCX home", width=48, height=48),
            to=routes.HOME.path,
            class_name="auth-logo",
        ),
        rx.el.h1(heading, class_name="auth-title"),
        *children,
        class_name="auth-card",
    )


def switch_line(text: str, action: str, on_click: EventSpec) -> rx.Component:
    return rx.el.p(
        text,
        " ",
        rx.el.button(action, type="button", class_name="link-button", on_click=on_click),
        class_name="auth-switch",
    )
