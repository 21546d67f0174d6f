"""Small pieces of the staff pages: tables that stack on phones, pagers, notices."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import reflex as rx
from reflex.event import EventSpec
from reflex.vars import ArrayVar, NumberVar, ObjectVar, Var

from rcxsite.components.form_fields import action_button, status_message


def data_table(
    caption: str,
    headers: Sequence[str],
    rows: ArrayVar[list[dict[str, str]]],
    cells: Callable[[ObjectVar[dict[str, str]]], Sequence[rx.Component | Var[str] | str]],
    *,
    empty: str,
    sortable: Mapping[str, tuple[rx.Component, Var[str]]] | None = None,
) -> rx.Component:
    """A table whose rows become labelled cards on a phone (each cell names its column).
    `sortable`: by header, what its cell holds instead of the text (a button) and its
    `aria-sort` ("ascending", "descending" or "none")."""
    sortable = sortable or {}

    def header_cell(text: str) -> rx.Component:
        if text not in sortable:
            return rx.el.th(text, scope="col")
        content, order = sortable[text]
        return rx.el.th(content, scope="col", aria_sort=order)

    return rx.cond(
        rows.length() > 0,
        rx.el.div(
            rx.el.table(
                rx.el.caption(caption, class_name="sr-only"),
                rx.el.thead(rx.el.tr(*[header_cell(text) for text in headers])),
                rx.el.tbody(
                    rx.foreach(
                        rows,
                        lambda row: rx.el.tr(
                            *[
                                rx.el.td(cell, data_label=header)
                                for header, cell in zip(headers, cells(row), strict=True)
                            ]
                        ),
                    )
                ),
                class_name="staff-table",
            ),
            # Scrolls sideways when a wide table meets a narrow window: keyboard users
            # reach it too.
            tab_index=0,
            role="region",
            aria_label=caption,
            class_name="staff-table-wrap",
        ),
        rx.el.p(empty, class_name="staff-empty"),
    )


def pager(
    page: NumberVar[int],
    pages: NumberVar[int],
    total: NumberVar[int],
    go_to: Callable[[NumberVar], EventSpec],
    *,
    noun: str,
    nouns: str,
) -> rx.Component:
    return rx.el.nav(
        action_button("Previous", on_click=go_to(page - 1), disabled=page <= 1),
        rx.el.span(
            "Page ",
            page,
            " of ",
            pages,
            " (",
            total,
            " ",
            rx.cond(total == 1, noun, nouns),
            ")",
            class_name="staff-pager-text",
            aria_live="polite",
        ),
        action_button("Next", on_click=go_to(page + 1), disabled=page >= pages),
        aria_label="Pages",
        class_name="staff-pager",
    )


def notices(error: Var[str] | str, notice: Var[str] | str) -> rx.Component:
    return rx.fragment(status_message(error, kind="error"), status_message(notice, kind="success"))


def page_heading(text: str | Var[str], *actions: rx.Component) -> rx.Component:
    return rx.el.div(rx.el.h1(text, class_name="staff-title"), *actions, class_name="staff-heading")


def badge(text: Var[str] | str, *, tone: str = "") -> rx.Component:
    """A short word beside a value ("Overdue"): the word says it, the colour only helps."""
    return rx.el.span(text, class_name=f"staff-badge staff-badge-{tone}" if tone else "staff-badge")
