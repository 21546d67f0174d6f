"""The site header: logo, three drop-down menus, links, the sign-in state (Log in, or My
account and Logout) and the search box (a plain form: rcxsite/components/search_box.py)."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.media import image
from rcxsite.components.react import (
    HeaderShell,
    MobileMenu,
    MobileSection,
    NavDropdown,
    nav_link,
)
from rcxsite.components.search_box import search_box, search_icon
from rcxsite.components.theme import LOGO_SRC
from rcxsite.content import routes
from rcxsite.platform.settings import get_settings
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
    """Log in for visitors; My account and Logout for signed-in customers."""
    link_class = "mobile-link" if mobile else "nav-link"
    # In the phone menu, `data-menu-close` closes the menu as a link would.
    closes = {"data-menu-close": "true"} if mobile else {}
    return rx.cond(
        SessionState.signed_in,
        rx.fragment(
            nav_link(routes.ACCOUNT.text, to=routes.ACCOUNT.path, class_name=link_class),
            rx.el.button(
                "Logout",
                type="button",
                class_name=f"{link_class} nav-logout",
                on_click=SessionState.log_out,
                custom_attrs=closes,
            ),
        ),
        nav_link(routes.LOG_IN.text, to=routes.LOG_IN.path, class_name=link_class),
    )


def desktop_nav() -> rx.Component:
    return rx.el.nav(
        *[desktop_menu(group, label) for group, label in routes.MENU_GROUPS],
        *[
            nav_link(
                route.text,
                to=route.path,
                class_name="nav-link nav-cta" if route == routes.QUOTE else "nav-link",
            )
            for route in _PLAIN_LINKS
        ],
        account_action(),
        class_name="desktop-nav",
        aria_label="Main",
    )


def _mobile_link(route: routes.Route, class_name: str = "mobile-link") -> rx.Component:
    return nav_link(route.text, to=route.path, class_name=class_name)


def _mobile_section(group: routes.MenuGroup, label: str) -> rx.Component:
    return MobileSection.create(
        rx.el.ul(
            *[
                rx.el.li(
                    nav_link(
                        rx.icon(route.icon, size=18, aria_hidden="true"),
                        rx.el.span(route.text),
                        to=route.path,
                        class_name="mobile-sub-link",
                    )
                )
                for route in routes.menu_routes(group)
            ],
            class_name="mobile-sub-list",
        ),
        label=label,
    )


def mobile_nav() -> rx.Component:
    return MobileMenu.create(
        rx.el.div(
            logo(),
            rx.el.button(
                rx.icon("x", size=28, aria_hidden="true"),
                type="button",
                class_name="mobile-close",
                aria_label="Close menu",
                custom_attrs={"data-menu-close": "true"},
            ),
            class_name="mobile-menu-top",
        ),
        search_box(
            landmark="Site search, menu",
            class_name="menu-search",
            button="Search",
            placeholder="Search the site",
        ),
        rx.el.nav(
            rx.el.div(
                *[_mobile_section(group, label) for group, label in routes.MENU_GROUPS],
                class_name="mobile-sections",
            ),
            *[_mobile_link(route) for route in _PLAIN_LINKS],
            account_action(mobile=True),
            nav_link("Request A Quote", to=routes.QUOTE.path, class_name="mobile-cta"),
            aria_label="Mobile",
            class_name="mobile-nav",
        ),
    )


def navbar() -> rx.Component:
    return HeaderShell.create(
        rx.el.div(
            logo(),
            desktop_nav(),
            search_box(
                landmark="Site search",
                class_name="header-search",
                button=search_icon(),
                button_label="Search",
            ),
            rx.el.div(mobile_nav(), class_name="mobile-only"),
            class_name="header-inner",
        ),
        class_name="site-header",
    )
