"""The full-screen loading view shown while a page is not ready."""

import reflex as rx

from rcxsite.components.media import image
from rcxsite.components.react import DiscSpinner
from rcxsite.components.theme import LOGO_SRC, SAND


def loading_view() -> rx.Component:
    return rx.el.div(
        DiscSpinner.create(color=SAND, size=160, css_override={"borderWidth": "6px"}),
        image(LOGO_SRC, alt="Loading...", width=64, height=64, class_name="loading-logo"),
        class_name="loading-view",
        role="status",
        aria_live="polite",
        aria_busy="true",
    )
