"""The site header: logo, three drop-down menus, links and the sign-in state (spec §2)."""

from __future__ import annotations

import reflex as rx

from rcxsite import routes
from rcxsite.components.media import image
from rcxsite.components.react import HeaderShell, NavDropdown, nav_link
from rcxsite.components.theme import LOGO_SRC
from rcxsite.settings import get_settings
from rcxsite.state.session import SessionState

_PLAIN_LINKS = (routes.ABOUT, routes.CAREERS, routes.QUOTE)


def logo() -> rx.Component:
    company = get_settings().company_name
    return nav_link(
        image(LOGO_SRC, alt="", width=40, height=40),
        rx.el.span(company, class_name="brand-name"),
        to=routes.HOME.path,
        class_name="brand",
        aria_label=f"{company} home",
    )


def menu_entry(route: routes.Route) -> rx.Component:
    return nav_link(
        rx.icon(route.icon, size=20, class_name="menu-entry-icon", aria_hidden="true"),
        rx.el.span(route.text),
        to=route.path,
        class_name="menu-entry",
    )


def desktop_menu(group: routes.MenuGroup, label: str) -> rx.Component:
    entries = routes.menu_routes(group)
    return NavDropdown.create(
        *[menu_entry(route) for route in entries],
        label=label,
        paths=[route.path for route in entries],
    )


def account_action(*, mobile: bool = False) -> rx.Component:
    """Log in for visitors, Logout for signed-in customers."""
    wrap = rx.dialog.close if mobile else rx.fragment
    link_class = "mobile-link" if mobile else "nav-link"
    return rx.cond(
        SessionState.signed_in,
        wrap(
            rx.el.button(
                "Logout", type="button", class_name=f"{link_class} nav-logout",
                on_click=SessionState.log_out,
            )
        ),
        wrap(nav_link(routes.LOG_IN.text, to=routes.LOG_IN.path, class_name=link_class)),
    )


def desktop_nav() -> rx.Component:
    return rx.el.nav(
        *[desktop_menu(group, label) for group, label in routes.MENU_GROUPS],
        *[
            nav_link(route.text, to=route.path, class_name="nav-link")
            for route in _PLAIN_LINKS
        ],
        account_action(),
        class_name="desktop-nav",
        aria_label="Main",
    )


def _mobile_link(route: routes.Route, class_name: str = "mobile-link") -> rx.Component:
    # Following any link in the overlay closes it.
    return rx.dialog.close(nav_link(route.text, to=route.path, class_name=class_name))


def _mobile_section(group: routes.MenuGroup, label: str) -> rx.Component:
    return rx.accordion.item(
        header=label,
        content=rx.el.ul(
            *[
                rx.el.li(
                    rx.dialog.close(
                        nav_link(
                            rx.icon(route.icon, size=18, aria_hidden="true"),
                            rx.el.span(route.text),
                            to=route.path, class_name="mobile-sub-link",
                        )
                    )
                )
                for route in routes.menu_routes(group)
            ],
            class_name="mobile-sub-list",
        ),
        value=group,
        class_name="mobile-section",
    )


def mobile_nav() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.trigger(
            rx.el.button(
                rx.icon("menu", size=28, aria_hidden="true"),
                type="button", class_name="hamburger", aria_label="Open menu",
            )
        ),
        rx.dialog.content(
            rx.dialog.title(rx.el.h2("Menu", class_name="sr-only"), as_child=True),
            rx.dialog.description("Site navigation", class_name="sr-only"),
            rx.el.div(
                logo(),
                rx.dialog.close(
                    rx.el.button(
                        rx.icon("x", size=28, aria_hidden="true"),
                        type="button", class_name="mobile-close", aria_label="Close menu",
                    )
                ),
                class_name="mobile-menu-top",
            ),
            rx.el.nav(
                rx.accordion.root(
                    *[_mobile_section(group, label) for group, label in routes.MENU_GROUPS],
                    type="multiple",
                    collapsible=True,
                    variant="ghost",
                    class_name="mobile-sections",
                ),
                *[_mobile_link(route) for route in _PLAIN_LINKS],
                account_action(mobile=True),
                _mobile_link_button(),
                aria_label="Mobile",
                class_name="mobile-nav",
            ),
            class_name="mobile-menu",
        ),
    )


def _mobile_link_button() -> rx.Component:
    return rx.dialog.close(
        nav_link("Request A Quote", to=routes.QUOTE.path, class_name="mobile-cta")
    )


def navbar() -> rx.Component:
    return HeaderShell.create(
        rx.el.div(
            logo(),
            desktop_nav(),
            rx.el.div(mobile_nav(), class_name="mobile-only"),
            class_name="header-inner",
        ),
        class_name="site-header",
    )
