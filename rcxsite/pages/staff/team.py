"""/staff/team: admins only (the server checks every event)."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from rcxsite.components.form_fields import form, select_field, text_field
from rcxsite.components.react import OneTimeSecret
from rcxsite.components.staff_ui import data_table, notices, page_heading
from rcxsite.forms import max_length
from rcxsite.routes import Route
from rcxsite.staff.inputs import InviteInput
from rcxsite.state.staff.team import INVITE_LINK, ROLE_OPTIONS, StaffTeamState


def _member_actions(member: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.el.div(
        rx.el.label("Role", html_for=f"role-{member['id']}", class_name="sr-only"),
        rx.el.select(
            *[rx.el.option(label, value=value) for value, label in ROLE_OPTIONS],
            id="role-" + member["id"].to(str),
            value=member["role"],
            aria_label="Role of " + member["name"].to(str),
            on_change=lambda role: StaffTeamState.change_role(member["id"], role),
            class_name="field-input staff-inline-select",
        ),
        rx.cond(
            member["status"] == "Enabled",
            rx.el.button(
                "Disable",
                type="button",
                class_name="button button-outline",
                on_click=StaffTeamState.set_disabled(member["id"], True),
            ),
            rx.el.button(
                "Enable",
                type="button",
                class_name="button button-outline",
                on_click=StaffTeamState.set_disabled(member["id"], False),
            ),
        ),
        rx.el.button(
            "Reset two-factor",
            type="button",
            class_name="button button-outline",
            on_click=StaffTeamState.reset_two_factor(member["id"]),
        ),
        class_name="staff-row-actions",
    )


def _invite_form() -> rx.Component:
    errors = StaffTeamState.invite_errors
    return form(
        rx.el.h2("Invite a member", class_name="staff-subtitle"),
        rx.el.div(
            text_field(
                "Email",
                "email",
                error=errors["email"],
                field_id="invite-email",
                input_type="email",
                max_length=max_length(InviteInput, "email"),
            ),
            text_field(
                "Name",
                "name",
                error=errors["name"],
                field_id="invite-name",
                max_length=max_length(InviteInput, "name"),
            ),
            select_field(
                "Role", "role", ROLE_OPTIONS, error=errors["role"], field_id="invite-role"
            ),
            class_name="staff-form-row",
        ),
        rx.el.button("Invite", type="submit", class_name="button button-primary"),
        on_submit=StaffTeamState.invite,
        reset_on_submit=False,
        no_validate=True,
        class_name="staff-form",
        aria_label="Invite a member",
    )


def staff_team_page(route: Route) -> rx.Component:
    return rx.el.div(
        page_heading("Team"),
        notices(StaffTeamState.error, StaffTeamState.notice),
        rx.cond(
            StaffTeamState.invite_shown,
            rx.el.p(
                "Invitation link (also mailed): ",
                OneTimeSecret.create(slot=INVITE_LINK, class_name="staff-link"),
                class_name="staff-note",
            ),
        ),
        data_table(
            "Staff members",
            ("Name", "Email", "Role", "Two-factor", "Status", "Last sign-in", "Actions"),
            StaffTeamState.members,
            lambda m: (
                m["name"],
                m["email"],
                m["role_label"],
                m["two_factor"],
                m["status"],
                m["last_sign_in"],
                _member_actions(m),
            ),
            empty="No members yet.",
        ),
        _invite_form(),
        class_name="staff-page",
    )
