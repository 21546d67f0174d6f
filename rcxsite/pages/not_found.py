"""The page for any path the site does not have (served with HTTP status 404).

React Router renders it in the browser, so the build writes no HTML of its own for it; the
server answers a miss with the app's shell plus `prerendered_html()`
(rcxsite/content/not_found.py), the same texts as
plain HTML (rcxsite/web/not_found.py), so a crawler or a phone still waiting for the
scripts reads them too.
"""

import reflex as rx

from rcxsite.components.blocks import cta_button
from rcxsite.content import routes
from rcxsite.content.not_found import EYEBROW, HOME_LINK, MESSAGE, TITLE


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
