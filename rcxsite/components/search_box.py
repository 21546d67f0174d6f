"""The site's search box: a plain HTML form that loads /search?q=... by itself.

`rx.el.form` always adds a submit handler that stops the browser from submitting, so the
box is built on the bare element instead: it works before the page's scripts have loaded,
ships no JavaScript of its own (the header is on every page), and needs no state.
"""

from __future__ import annotations

import reflex as rx
from reflex_components_core.el.elements.base import BaseHTML

from rcxsite.content import routes
from rcxsite.search import QUERY_FIELD, QUERY_MAX

LABEL = "Search the site"


class PlainForm(BaseHTML):
    """A <form> the browser submits itself."""

    tag = "form"

    action: rx.Var[str]
    method: rx.Var[str]


def search_icon() -> rx.Component:
    return rx.icon("search", size=20, aria_hidden="true")


def search_box(
    *,
    landmark: str,
    class_name: str,
    button: rx.Component | str,
    button_label: str = "",
    label_class: str = "sr-only",
    placeholder: str = "Search",
    **input_props,
) -> rx.Component:
    """A labelled search field and its submit button in a `role="search"` form; `landmark`
    names the form among the page's landmarks (each search form needs its own name)."""
    # The label wraps the field instead of naming its id: an element with an id gets a
    # React ref, and with it a hook on every page.
    return PlainForm.create(
        rx.el.div(
            rx.el.label(
                rx.el.span(LABEL, class_name=label_class),
                rx.el.input(
                    name=QUERY_FIELD,
                    type="search",
                    max_length=QUERY_MAX,
                    placeholder=placeholder,
                    auto_complete="off",
                    enter_key_hint="search",
                    class_name=f"{class_name}-input",
                    **input_props,
                ),
                class_name=f"{class_name}-label",
            ),
            rx.el.button(
                button,
                type="submit",
                class_name=f"{class_name}-button",
                aria_label=button_label or None,
            ),
            class_name=f"{class_name}-row",
        ),
        action=routes.SEARCH.path,
        method="get",
        role="search",
        aria_label=landmark,
        class_name=class_name,
    )
