"""The page for any path the site does not have (served with HTTP status 404)."""

import reflex as rx

from rcxsite import routes
from rcxsite.components.blocks import cta_button

TITLE = "Page not found"


def not_found_page() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.p("404", class_name="eyebrow"),
            rx.el.h1(TITLE, class_name="hero-title"),
            rx.el.p("The page you are looking for does not exist or has moved.",
                    class_name="hero-subtitle"),
            cta_button("Go to the home page", route=routes.HOME),
            class_name="hero-inner page-width",
        ),
        class_name="hero",
    )
