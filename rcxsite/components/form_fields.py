"""Labelled form fields with their error messages, and the result dialog.

Every text control takes its `max_length` from its input model
(`rcxsite.core.forms.max_length`), so pasting a huge text cuts it to what the server accepts
instead of sending a message the server refuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import reflex as rx
from reflex.vars import Var

from rcxsite.components.react import PasswordInput, ResultDialog
from rcxsite.core.forms import HONEYPOT_FIELD, FormInput, max_length


def field_error(field_id: str, error: Var[str] | str) -> rx.Component:
    return rx.el.p(error, id=f"{field_id}-error", class_name="field-error", aria_live="polite")


def labelled(
    label: str,
    field_id: str,
    control: rx.Component,
    error: Var[str] | str = "",
    *,
    wide: bool = False,
) -> rx.Component:
    """A field: its label, the control, and the error line the control points to. A
    control built by the caller must carry `control_attrs(field_id, error)`."""
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name="field-label"),
        control,
        field_error(field_id, error),
        class_name="field field-wide" if wide else "field",
    )


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
    return labelled(
        label,
        field_id,
        rx.el.input(
            name=name,
            type=input_type,
            auto_complete=autocomplete or "off",
            **control_attrs(field_id, error),
            **props,
        ),
        error,
    )


def control_attrs(field_id: str, error: Var[str] | str = "") -> dict[str, Any]:
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
    return labelled(
        label,
        field_id,
        rx.el.select(
            rx.el.option(placeholder, value=""),
            *[rx.el.option(text, value=value) for value, text in options],
            name=name,
            default_value="",
            **control_attrs(field_id, error),
            **props,
        ),
        error,
    )


def textarea_field(
    label: str, name: str, *, error: Var[str] | str, field_id: str = "", rows: int = 6, **props
) -> rx.Component:
    field_id = field_id or name
    return labelled(
        label,
        field_id,
        rx.el.textarea(name=name, rows=rows, **control_attrs(field_id, error), **props),
        error,
        wide=True,
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
    return labelled(
        label,
        field_id,
        PasswordInput.create(
            label=label,
            input_id=field_id,
            name=name,
            auto_complete=autocomplete,
            invalid=rx.cond(error != "", "true", "false"),
            described_by=f"{field_id}-error",
            max_length=max_length,
        ),
        error,
    )


def honeypot(field_id: str, *, max_length: int) -> rx.Component:
    """The bot trap (`rcxsite.core.forms.HONEYPOT_FIELD`): bots fill every field; people
    never see this one, and a keyboard never reaches it."""
    return rx.el.div(
        rx.el.label("Leave this field empty", html_for=field_id),
        rx.el.input(
            id=field_id,
            name=HONEYPOT_FIELD,
            type="text",
            tab_index=-1,
            auto_complete="off",
            default_value="",
            max_length=max_length,
        ),
        class_name="honeypot",
        aria_hidden="true",
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


def form(*children: rx.Component, failure: str = "", **props: Any) -> rx.Component:
    """A form of this site. It never puts what it holds in a URL: submitted before the
    scripts have loaded (a slow phone, Enter pressed early), a form without a method would
    send `GET ?email=...&password=...` into history and access logs; POST keeps it in the
    body. The browser does not check it (`noValidate`): the server checks every field and
    answers in the site's own words, which the browser's bubbles would not use. `failure`:
    what the page says if the server cannot answer the submit (SiteEffects.jsx), instead of
    the general text."""
    if failure:
        props["custom_attrs"] = {"data-failure": failure, **props.get("custom_attrs", {})}
    return rx.el.form(*children, method="post", no_validate=True, **props)


def action_button(
    text: str,
    *,
    on_click: Any,
    kind: str = "outline",
    busy: Var[bool] | None = None,
    busy_text: str = "",
    **props: Any,
) -> rx.Component:
    """A button that runs a handler and never submits the form it sits in. `kind` is the
    look: "primary", "outline", "link" (a button drawn as a link), "text" (a link inside a
    sentence or a table cell). With `busy`, it says `busy_text` and waits while that is on."""
    class_name = "link-button" if kind == "text" else f"button button-{kind}"
    if busy is not None:
        props["disabled"] = busy
        label: Any = rx.cond(busy, busy_text, text)
    else:
        label = text
    return rx.el.button(label, type="button", on_click=on_click, class_name=class_name, **props)


@dataclass(frozen=True)
class ModelFields:
    """The fields of one input model's form: each takes its length limit from `model`, its
    message from `errors` (the state's per-field messages) and the id `{prefix}-{name}`
    unless it names its own."""

    model: type[FormInput]
    errors: Any
    prefix: str

    def _common(self, name: str, field_id: str) -> dict[str, Any]:
        return {
            "error": self.errors[name],
            "field_id": field_id or f"{self.prefix}-{name}",
            "max_length": max_length(self.model, name),
        }

    def text(self, label: str, name: str, *, field_id: str = "", **props: Any) -> rx.Component:
        return text_field(label, name, **self._common(name, field_id), **props)

    def password(
        self,
        label: str,
        name: str,
        *,
        field_id: str = "",
        autocomplete: str = "current-password",
    ) -> rx.Component:
        return password_field(
            label, name, autocomplete=autocomplete, **self._common(name, field_id)
        )
