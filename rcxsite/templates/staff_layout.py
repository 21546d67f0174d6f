"""The staff back office's layout: its own slim header (no public header or footer, no
links to it from the public site) and a main area that shows a page only once the server
has said who is asking."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.form_fields import action_button
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.core.permissions import NO_ACCESS, Permission
from rcxsite.state.staff.access import StaffState, role_may
from rcxsite.templates.layouts import MAIN_ID, frame

CHECKING = "Checking your sign-in…"
# Which role sees which link; the server checks again on every event.
_NAV: tuple[tuple[routes.Route, Permission], ...] = (
    (routes.STAFF_INBOX, Permission.READ_QUOTES),
    (routes.STAFF_CALLS, Permission.TAKE_CALLS),
    (routes.STAFF_AVAILABILITY, Permission.TAKE_CALLS),
    (routes.STAFF_CUSTOMERS, Permission.READ_CUSTOMERS),
    (routes.STAFF_ANALYTICS, Permission.READ_ANALYTICS),
    (routes.STAFF_CANDIDATES, Permission.HIRE),
    (routes.STAFF_TEAM, Permission.MANAGE_TEAM),
    (routes.STAFF_AUDIT, Permission.READ_AUDIT),
    (routes.STAFF_JOBS, Permission.OPERATE_JOBS),
)


def _nav() -> rx.Component:
    return rx.el.nav(
        rx.el.ul(
            *[
                rx.cond(
                    role_may(permission),
                    rx.el.li(
                        nav_link(
                            route.text,
                            to=route.path,
                            class_name="staff-nav-link",
                            # "/staff" is every staff page's prefix.
                            end=route is routes.STAFF_INBOX,
                        )
                    ),
                )
                for route, permission in _NAV
            ],
            class_name="staff-nav-list",
        ),
        aria_label="Staff",
        class_name="staff-nav",
    )


def _header() -> rx.Component:
    return rx.el.header(
        rx.el.div(
            rx.el.span("RCX staff", class_name="staff-brand"),
            rx.cond(StaffState.member_name != "", _nav()),
            rx.cond(
                StaffState.member_name != "",
                rx.el.div(
                    rx.el.span(StaffState.member_name, class_name="staff-member"),
                    action_button("Sign out", on_click=StaffState.sign_out),
                    class_name="staff-account",
                ),
            ),
            class_name="staff-header-inner",
        ),
        class_name="staff-header",
    )


def staff_content(content: rx.Component) -> rx.Component:
    """`content` once the server has checked the member's access; a clear text otherwise."""
    return rx.match(
        StaffState.access,
        ("ok", content),
        (
            "denied",
            rx.fragment(
                rx.el.h1("No access", class_name="staff-title"),
                rx.el.p(NO_ACCESS, class_name="staff-denied", role="alert"),
            ),
        ),
        rx.fragment(
            rx.el.h1("Staff area", class_name="staff-title"),
            rx.el.p(CHECKING, class_name="staff-checking", role="status"),
        ),
    )


def staff_layout(content: rx.Component) -> rx.Component:
    return frame(
        _header(),
        rx.el.main(staff_content(content), id=MAIN_ID, class_name="staff-main", tab_index=-1),
        watch_session=False,
    )
