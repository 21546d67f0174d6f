"""Building blocks every page is made of: hero, sections, cards and the call to action."""

from __future__ import annotations

import reflex as rx

from rcxsite import routes
from rcxsite.components.react import nav_link


def hero(title: str, subtitle: str, *, eyebrow: str = "", cta: bool = True) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.p(eyebrow, class_name="eyebrow") if eyebrow else None,
            rx.el.h1(title, class_name="hero-title"),
            rx.el.p(subtitle, class_name="hero-subtitle"),
            cta_button("Request a Quote") if cta else None,
            class_name="hero-inner page-width",
        ),
        class_name="hero",
    )


def cta_button(text: str, *, route: routes.Route = routes.QUOTE) -> rx.Component:
    return nav_link(text, to=route.path, class_name="button button-primary")


def section(heading: str, *children: rx.Component, intro: str = "",
            tone: str = "light") -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h2(heading, class_name="section-title"),
            rx.el.p(intro, class_name="section-intro") if intro else None,
            *children,
            class_name="page-width",
        ),
        class_name=f"section section-{tone}",
    )


def bullet_list(items: tuple[str, ...] | list[str]) -> rx.Component:
    return rx.el.ul(*[rx.el.li(item) for item in items], class_name="check-list")


def card(title: str, body: str, *, icon: str = "", href: str = "",
         link_text: str = "") -> rx.Component:
    heading = rx.el.h3(
        nav_link(title, to=href, class_name="card-link") if href else title,
        class_name="card-title",
    )
    return rx.el.article(
        rx.el.span(rx.icon(icon, size=28), class_name="card-icon", aria_hidden="true")
        if icon else None,
        heading,
        rx.el.p(body, class_name="card-body"),
        rx.el.p(link_text, class_name="card-more", aria_hidden="true") if link_text else None,
        class_name="card" + (" card-clickable" if href else ""),
    )


def card_grid(*cards: rx.Component) -> rx.Component:
    return rx.el.div(*cards, class_name="card-grid")


def route_cards(entries: tuple[routes.Route, ...], link_text: str = "Learn more") -> rx.Component:
    return card_grid(
        *[
            card(route.text, route.description, icon=route.icon, href=route.path,
                 link_text=link_text)
            for route in entries
        ]
    )


def cta_band(heading: str = "Have a project in mind?",
             body: str = "Tell us where you want to go. We reply within one working day "
                         "with next steps and a call slot.") -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h2(heading, class_name="cta-title"),
            rx.el.p(body, class_name="cta-body"),
            cta_button("Request a Quote"),
            class_name="page-width cta-inner",
        ),
        class_name="cta-band",
    )
