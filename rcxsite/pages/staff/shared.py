"""Pieces shared by the staff pages: fact lists, labelled controls and in-app links; the
ways in's card and code field. (What a role may see is `role_may`, state/staff/access.py.)"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars import ArrayVar, Var

from rcxsite.components.form_fields import control_attrs, field_error, form, text_field
from rcxsite.components.react import nav_link
from rcxsite.core.forms import FormInput, max_length
from rcxsite.models.types import LOST_REASON_MAX


def facts(rows: ArrayVar[list[list[str]]]) -> rx.Component:
    """A list of [term, value] pairs as a definition list (one column on phones)."""
    return rx.el.dl(
        rx.foreach(
            rows,
            lambda row: rx.el.div(rx.el.dt(row[0]), rx.el.dd(row[1]), class_name="account-fact"),
        ),
        class_name="account-facts staff-facts",
    )


def linked_facts(rows: ArrayVar[list[list[str]]]) -> rx.Component:
    """As `facts`, from [term, value, href] rows: a value with an href ("" for none) is a
    link to it, its text unchanged (the state builds hrefs that are safe to follow)."""
    return rx.el.dl(
        rx.foreach(
            rows,
            lambda row: rx.el.div(
                rx.el.dt(row[0]),
                rx.el.dd(
                    rx.cond(
                        row[2] != "",
                        rx.el.a(row[1], href=row[2], class_name="staff-record-link"),
                        row[1],
                    )
                ),
                class_name="account-fact",
            ),
        ),
        class_name="account-facts staff-facts",
    )


def link(text: Var[str] | str, to: Var[str] | str) -> rx.Component:
    """A client-side link to another staff page (its on_load then fetches the data)."""
    return nav_link(text, to=to, class_name="staff-record-link")


def entry_card(heading: str, *children: rx.Component) -> rx.Component:
    """The card of the ways in (sign-in, the invitation), on the bare layout."""
    return rx.el.div(
        rx.el.p("RCX staff", class_name="staff-brand"),
        rx.el.h1(heading, class_name="auth-title"),
        *children,
        class_name="auth-card",
    )


def code_field(error: Var[str], *, field_id: str, model: type[FormInput]) -> rx.Component:
    """An authenticator app's code (or a recovery code), limited as `model` says."""
    return text_field(
        "Code",
        "code",
        error=error,
        field_id=field_id,
        autocomplete="one-time-code",
        input_mode="text",
        max_length=max_length(model, "code"),
    )


def lost_reason_field(field_id: str, error: Var[str], **props: Any) -> rx.Component:
    """Why a request was lost: asked beside the status, needed only for Lost (the server
    decides; the hint says so before anyone sends)."""
    return rx.el.div(
        rx.el.label("Reason", html_for=field_id, class_name="field-label"),
        rx.el.input(
            type="text",
            name="reason",
            max_length=LOST_REASON_MAX,
            auto_complete="off",
            **{
                **control_attrs(field_id, error),
                "aria_describedby": f"{field_id}-hint {field_id}-error",
            },
            **props,
        ),
        rx.el.p(
            "Needed when the status is Lost.",
            id=f"{field_id}-hint",
            class_name="field-hint staff-hint",
        ),
        field_error(field_id, error),
        class_name="field",
    )


def staff_form(
    *children: rx.Component,
    submit: str,
    on_submit: Any,
    kind: str = "primary",
    **props: Any,
) -> rx.Component:
    """A staff form: its fields, then its one submit button (`kind`: "primary" or
    "danger"). The server checks every field and says what is wrong, so the browser's own
    checks are off; the fields keep what was typed after a refusal (a `key` the state
    bumps remounts them with the stored values)."""
    return form(
        *children,
        rx.el.button(submit, type="submit", class_name=f"button button-{kind}"),
        on_submit=on_submit,
        reset_on_submit=False,
        class_name="staff-form",
        **props,
    )
