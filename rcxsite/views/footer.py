"""The site footer: links, a site map of every page family, social links, policies and
the copyright line."""

from __future__ import annotations

import datetime

import reflex as rx

from rcxsite.components.media import image
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.platform.settings import get_settings
from rcxsite.views.proof import footer_credentials, footer_offices


def _footer_links() -> tuple[tuple[str, str], ...]:
    return (
        ("Home", routes.HOME.path),
        ("About Us", routes.ABOUT.path),
        ("Services", routes.route_for("service", "software-development").path),
        ("Industry", routes.route_for("industry", "healthcare").path),
        ("Insights", routes.BLOGS.path),
        ("Careers", routes.CAREERS.path),
        ("Request a Quote", routes.QUOTE.path),
    )


def _sitemap() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Every public page family, in columns, from the route table: what the header's menus
    and the links above do not reach is reached here."""
    company = [r for r in routes.menu_routes("insights") if r != routes.BLOGS]
    return (
        (
            "Services",
            (
                ("All services", routes.SERVICES_INDEX.path),
                *((r.text, r.path) for r in routes.menu_routes("services")),
            ),
        ),
        ("Industries", tuple((r.text, r.path) for r in routes.menu_routes("industry"))),
        ("Company", tuple((r.text, r.path) for r in (*company, routes.GALLERY))),
        (
            "Products",
            (
                (routes.PRODUCTS.text, routes.PRODUCTS.path),
                (routes.PRICING.text, routes.PRICING.path),
            ),
        ),
    )


def _social_links() -> tuple[tuple[str, str, str], ...]:
    settings = get_settings()
    return (
        ("facebook", "Facebook", settings.facebook_url),
        ("instagram", "Instagram", settings.instagram_url),
        ("linkedin", "LinkedIn", settings.linkedin_url),
    )


_POLICY_LINKS = (
    ("Terms of Use", routes.TERMS),
    ("Privacy Policy", routes.PRIVACY),
    ("Cookie Policy", routes.COOKIES),
)


def copyright_line() -> rx.Component:
    # The year is read in the browser so a prerendered page never shows last year.
    company = get_settings().company_name
    year: rx.Var[int] = rx.Var("new Date().getFullYear()", _var_type=int)
    return rx.el.p(
        "© ",
        rx.el.span(year, class_name="footer-year"),
        f" {company}. All rights reserved.",
        class_name="footer-copyright",
        suppress_hydration_warning=True,
        data_build_year=str(datetime.date.today().year),
    )


def footer() -> rx.Component:
    settings = get_settings()
    return rx.el.footer(
        rx.el.div(
            rx.el.div(
                rx.el.p(settings.company_name, class_name="footer-brand"),
                rx.el.p(
                    "Software, web and mobile products built by senior teams who care "
                    "about the result.",
                    class_name="footer-tagline",
                ),
                footer_offices(),
                footer_credentials(),
                rx.el.ul(
                    *[
                        rx.el.li(
                            rx.el.a(
                                image(
                                    f"/social/{icon}.svg", alt="", width=20, height=20, lazy=True
                                ),
                                rx.el.span(f"{name} (opens in a new tab)", class_name="sr-only"),
                                href=url,
                                target="_blank",
                                rel="noopener noreferrer",
                                class_name="social-link",
                                data_network=icon,
                            )
                        )
                        for icon, name, url in _social_links()
                    ],
                    class_name="social-links",
                ),
                class_name="footer-about",
            ),
            rx.el.nav(
                rx.el.ul(
                    *[
                        rx.el.li(nav_link(text, to=path, class_name="footer-link"))
                        for text, path in _footer_links()
                    ],
                    class_name="footer-links",
                ),
                aria_label="Footer",
            ),
            class_name="footer-inner page-width",
        ),
        rx.el.nav(
            *[
                rx.el.div(
                    rx.el.h2(heading, class_name="footer-heading"),
                    rx.el.ul(
                        *[
                            rx.el.li(nav_link(text, to=path, class_name="footer-link"))
                            for text, path in links
                        ],
                        class_name="footer-column-links",
                        role="list",
                    ),
                    class_name="footer-column",
                )
                for heading, links in _sitemap()
            ],
            aria_label="Site map",
            class_name="footer-sitemap page-width",
        ),
        rx.el.div(
            copyright_line(),
            rx.el.ul(
                *[
                    rx.el.li(nav_link(text, to=route.path, class_name="footer-link"))
                    for text, route in _POLICY_LINKS
                ],
                class_name="policy-links",
            ),
            class_name="footer-bottom page-width",
        ),
        class_name="site-footer",
    )
