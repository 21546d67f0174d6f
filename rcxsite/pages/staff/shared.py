"""Pieces shared by the inbox and customer pages: role checks for what to show, fact
lists, labelled controls and in-app links."""

from __future__ import annotations

import reflex as rx
from reflex.vars import Var

from rcxsite.components.react import nav_link
from rcxsite.staff.permissions import GRANTS, Permission
from rcxsite.state.staff.access import StaffState


def role_may(permission: Permission) -> Var[bool]:
    """Whether the signed-in member's role holds `permission`: only to hide controls that
    would be refused; every handler checks on the server anyway."""
    roles = sorted(GRANTS[permission])
    condition = StaffState.member_role == roles[0]
    for role in roles[1:]:
        condition = condition | (StaffState.member_role == role)
    return condition


def facts(rows: Var) -> rx.Component:
    """A list of [term, value] pairs as a definition list (one column on phones)."""
    return rx.el.dl(
        rx.foreach(rows, lambda row: rx.el.div(rx.el.dt(row[0]), rx.el.dd(row[1]),
                                               class_name="account-fact")),
        class_name="account-facts staff-facts",
    )


def field_error(field_id: str, error: Var[str] | str) -> rx.Component:
    return rx.el.p(error, id=f"{field_id}-error", class_name="field-error", aria_live="polite")


def labelled(label: str, field_id: str, control: rx.Component,
             error: Var[str] | str = "") -> rx.Component:
    """A control built by the caller (a select with live options, a date input that
    applies at once) with its label and its error line; the control must carry
    `id=field_id` and `aria_describedby=f"{field_id}-error"`."""
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name="field-label"),
        control,
        field_error(field_id, error),
        class_name="field",
    )


def control_attrs(field_id: str, error: Var[str] | str = "") -> dict:
    return {
        "id": field_id, "class_name": "field-input",
        "aria_invalid": rx.cond(error != "", "true", "false"),
        "aria_describedby": f"{field_id}-error",
    }


def link(text: Var | str, to: Var[str] | str) -> rx.Component:
    """A client-side link to another staff page (its on_load then fetches the data)."""
    return nav_link(text, to=to, class_name="staff-record-link")
