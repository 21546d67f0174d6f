"""Labelled form fields with their error messages, and the result dialog.

Every text control takes its `max_length` from its input model
(`rcxsite.forms.max_length`), so pasting a huge text cuts it to what the server accepts
instead of sending a message the server refuses.
"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars import Var

from rcxsite.components.react import PasswordInput, ResultDialog


def _error(field_id: str, error: Var[str] | str) -> rx.Component:
    return rx.el.p(error, id=f"{field_id}-error", class_name="field-error", aria_live="polite")


def text_field(
    label: str,
    name: str,
    *,
    error: Var[str] | str,
    field_id: str = "",
    input_type: str = "text",
    autocomplete: str = "",
    **props,
) -> rx.Component:
    field_id = field_id or name
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name="field-label"),
        rx.el.input(
            id=field_id,
            name=name,
            type=input_type,
            auto_complete=autocomplete or "off",
            class_name="field-input",
            aria_invalid=rx.cond(error != "", "true", "false"),
            aria_describedby=f"{field_id}-error",
            **props,
        ),
        _error(field_id, error),
        class_name="field",
    )


def _control_attrs(field_id: str, error: Var[str] | str) -> dict[str, Any]:
    return {
        "id": field_id,
        "class_name": "field-input",
        "aria_invalid": rx.cond(error != "", "true", "false"),
        "aria_describedby": f"{field_id}-error",
    }


def select_field(
    label: str,
    name: str,
    options: tuple[tuple[str, str], ...],
    *,
    error: Var[str] | str,
    field_id: str = "",
    placeholder: str = "Choose one",
    **props,
) -> rx.Component:
    field_id = field_id or name
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name="field-label"),
        rx.el.select(
            rx.el.option(placeholder, value=""),
            *[rx.el.option(text, value=value) for value, text in options],
            name=name,
            default_value="",
            **_control_attrs(field_id, error),
            **props,
        ),
        _error(field_id, error),
        class_name="field",
    )


def textarea_field(
    label: str, name: str, *, error: Var[str] | str, field_id: str = "", rows: int = 6, **props
) -> rx.Component:
    field_id = field_id or name
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name="field-label"),
        rx.el.textarea(name=name, rows=rows, **_control_attrs(field_id, error), **props),
        _error(field_id, error),
        class_name="field field-wide",
    )


def password_field(
    label: str,
    name: str,
    *,
    error: Var[str] | str,
    max_length: int,
    field_id: str = "",
    autocomplete: str = "current-password",
) -> rx.Component:
    field_id = field_id or name
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name="field-label"),
        PasswordInput.create(
            label=label,
            input_id=field_id,
            name=name,
            auto_complete=autocomplete,
            invalid=rx.cond(error != "", "true", "false"),
            described_by=f"{field_id}-error",
            max_length=max_length,
        ),
        _error(field_id, error),
        class_name="field",
    )


def status_message(text: Var[str] | str, *, kind: str) -> rx.Component:
    """A success notice or a failure message, announced to screen readers."""
    return rx.cond(
        text != "",
        rx.el.p(
            text,
            class_name=f"form-message form-{kind}",
            role="alert" if kind == "error" else "status",
        ),
    )


def submit_button(text: str, busy_text: str, *, busy: Var[bool]) -> rx.Component:
    return rx.el.button(
        rx.cond(busy, busy_text, text),
        type="submit",
        disabled=busy,
        class_name="button button-primary button-block",
    )


def result_dialog(
    *, open_: Var[bool], title: Var[str] | str, message: Var[str], on_ok: rx.EventHandler
) -> rx.Component:
    """A modal with one OK button; focus moves into it, Escape and OK close it."""
    return ResultDialog.create(
        open=open_, title=title, message=message, on_ok=on_ok, class_name="result-dialog"
    )


def form(*children: rx.Component, **props: Any) -> rx.Component:
    """A form that never puts what it holds in a URL: submitted before the scripts have
    loaded (a slow phone, Enter pressed early), a form without a method would send
    `GET ?email=...&password=...` into history and access logs; POST keeps it in the body."""
    return rx.el.form(*children, method="post", **props)
