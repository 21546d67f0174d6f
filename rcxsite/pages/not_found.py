"""The page for any path the site does not have (served with HTTP status 404).

React Router renders it in the browser, so the build writes no HTML of its own for it; the
server answers a miss with the app's shell plus `prerendered_html()`, the same texts as
plain HTML (rcxsite/web/not_found.py), so a crawler or a phone still waiting for the
scripts reads them too.
"""

from html import escape

import reflex as rx

from rcxsite import routes
from rcxsite.components.blocks import cta_button
from rcxsite.settings import get_settings

TITLE = "Page not found"
MESSAGE = "The page you are looking for does not exist or has moved."
HOME_LINK = "Go to the home page"
EYEBROW = "404"


def document_title() -> str:
    return f"{TITLE} | {get_settings().company_name}"


def not_found_page() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.p(EYEBROW, class_name="eyebrow"),
            rx.el.h1(TITLE, class_name="hero-title"),
            rx.el.p(MESSAGE, class_name="hero-subtitle"),
            cta_button(HOME_LINK, route=routes.HOME),
            class_name="hero-inner page-width",
        ),
        class_name="hero",
    )


def prerendered_html() -> str:
    """`not_found_page` as the HTML the page's own classes style, without the site frame."""
    return (
        '<section class="hero"><div class="hero-inner page-width">'
        f'<p class="eyebrow">{escape(EYEBROW)}</p>'
        f'<h1 class="hero-title">{escape(TITLE)}</h1>'
        f'<p class="hero-subtitle">{escape(MESSAGE)}</p>'
        f'<a class="button button-primary" href="{escape(routes.HOME.path)}">'
        f"{escape(HOME_LINK)}</a></div></section>"
    )
