"""Proof a buyer looks for, from content/proof.py: the clients bar and credentials (home
page), leadership and offices (/about), and the footer's offices line."""

from __future__ import annotations

import re
from functools import cache

import reflex as rx

from rcxsite.components.media import image
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.content.assets import ASSETS_DIR
from rcxsite.content.proof import CLIENTS, CREDENTIALS, LEADERSHIP, OFFICES, Client, Office

_CASE_STUDY_PATHS = {route.key: route.path for route in routes.CASE_STUDY_ROUTES}


_VIEW_BOX = re.compile(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"')


@cache
def _drawn_size(picture: str) -> tuple[int, int]:
    """A wordmark's own width and height (its viewBox): the page reserves that shape before
    the file arrives, so the row does not move when it does."""
    found = _VIEW_BOX.search((ASSETS_DIR / picture.lstrip("/")).read_text(encoding="utf-8"))
    return (round(float(found[1])), round(float(found[2]))) if found else (200, 56)


def _client(client: Client) -> rx.Component:
    width, height = _drawn_size(client.logo)
    logo = image(
        client.logo,
        alt=client.name,
        width=width,
        height=height,
        lazy=True,
        class_name="client-logo",
    )
    if client.case_study in _CASE_STUDY_PATHS:
        # The logo says who; the hidden words say where the link goes.
        logo = nav_link(
            logo,
            rx.el.span(": read the case study", class_name="sr-only"),
            to=_CASE_STUDY_PATHS[client.case_study],
            class_name="client-link",
        )
    return rx.el.li(logo, class_name="client")


def client_bar() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Trusted by", id="clients-title", class_name="clients-title"),
        rx.el.ul(*[_client(client) for client in CLIENTS], class_name="clients", role="list"),
        class_name="clients-bar page-width",
        aria_labelledby="clients-title",
        id="clients",
    )


def credentials(*, brief: bool = False) -> rx.Component:
    """`brief`: on phones the names only (the about page has the details)."""
    return rx.el.ul(
        *[
            rx.el.li(
                rx.el.strong(item.name, class_name="credential-name"),
                rx.el.span(item.detail, class_name="credential-detail"),
                class_name="credential",
            )
            for item in CREDENTIALS
        ],
        class_name="credentials" + (" credentials-brief" if brief else ""),
        role="list",
    )


def leadership() -> rx.Component:
    return rx.el.ul(
        *[
            rx.el.li(
                image(
                    person.portrait,
                    alt="",
                    width=120,
                    height=120,
                    lazy=True,
                    class_name="person-portrait",
                ),
                rx.el.h3(person.name, class_name="person-name"),
                rx.el.p(person.role, class_name="person-role"),
                rx.el.p(person.bio, class_name="person-bio"),
                class_name="person",
            )
            for person in LEADERSHIP
        ],
        class_name="people",
        role="list",
    )


def _office(office: Office) -> rx.Component:
    return rx.el.li(
        rx.el.h3(office.city, class_name="office-city"),
        rx.el.p(office.role, class_name="office-role"),
        rx.el.address(
            rx.el.p(office.address),
            rx.el.p(
                rx.el.a(
                    "Map",
                    rx.el.span(
                        f" of the {office.city} office (OpenStreetMap)", class_name="sr-only"
                    ),
                    href=office.map_url,
                )
            ),
            rx.el.p("Phone: ", rx.el.a(office.phone, href=office.phone_href)),
            rx.el.p("Email: ", rx.el.a(office.email, href=f"mailto:{office.email}")),
            class_name="office-address",
        ),
        class_name="office",
    )


def offices() -> rx.Component:
    return rx.el.ul(*[_office(office) for office in OFFICES], class_name="offices", role="list")


def footer_offices() -> rx.Component:
    return rx.el.ul(
        *[
            rx.el.li(
                rx.el.span(office.city, class_name="footer-office-city"),
                " ",
                rx.el.a(office.phone, href=office.phone_href, class_name="footer-office-phone"),
            )
            for office in OFFICES
        ],
        class_name="footer-offices",
        role="list",
        aria_label="Offices",
    )


def footer_credentials() -> rx.Component:
    return rx.el.p(
        " · ".join(item.name for item in CREDENTIALS),
        class_name="footer-credentials",
    )
