"""Request a quote (book a call)."""

import reflex as rx

from rcxsite import routes
from rcxsite.components.blocks import hero, section
from rcxsite.content.company import EMAIL, PHONE


def quote_page(route: routes.Route) -> rx.Component:
    return rx.fragment(
        hero(route.title, route.description, eyebrow="Book a call", cta=False),
        section(
            "How it works",
            rx.el.ol(
                rx.el.li("Tell us about your project and pick a time for a call."),
                rx.el.li("A senior consultant calls you and asks the right questions."),
                rx.el.li("Within two working days you receive a proposal with a fixed price."),
                class_name="steps",
            ),
            rx.el.p(f"Prefer email or phone? Write to {EMAIL} or call {PHONE}.",
                    class_name="lead"),
        ),
    )
