"""/staff/team: admins only (the server checks every event)."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from rcxsite.components.form_fields import ModelFields, action_button, select_field
from rcxsite.components.react import OneTimeSecret
from rcxsite.components.staff_ui import data_table, notices, page_heading
from rcxsite.content.routes import Route
from rcxsite.pages.staff.shared import staff_form
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
            action_button("Disable", on_click=StaffTeamState.set_disabled(member["id"], True)),
            action_button("Enable", on_click=StaffTeamState.set_disabled(member["id"], False)),
        ),
        action_button("Reset two-factor", on_click=StaffTeamState.reset_two_factor(member["id"])),
        class_name="staff-row-actions",
    )


def _invite_form() -> rx.Component:
    errors = StaffTeamState.invite_errors
    fields = ModelFields(InviteInput, errors, "invite")
    return staff_form(
        rx.el.h2("Invite a member", class_name="staff-subtitle"),
        rx.el.div(
            fields.text("Email", "email", input_type="email"),
            fields.text("Name", "name"),
            select_field(
                "Role", "role", ROLE_OPTIONS, error=errors["role"], field_id="invite-role"
            ),
            class_name="staff-form-row",
        ),
        submit="Invite",
        on_submit=StaffTeamState.invite,
        aria_label="Invite a member",
    )


def staff_team_page(route: Route) -> rx.Component:
    return rx.el.div(
        page_heading("Team"),
        notices(StaffTeamState.error, StaffTeamState.notice),
        rx.cond(
            StaffTeamState.role_question != "",
            rx.el.div(
                rx.el.p(StaffTeamState.role_question, class_name="staff-note"),
                rx.el.div(
                    action_button("Change role", on_click=StaffTeamState.confirm_role_change),
                    action_button("Keep the role", on_click=StaffTeamState.keep_role),
                    class_name="staff-row-actions",
                ),
                role="alertdialog",
                aria_label="Change the role?",
                class_name="staff-confirm",
            ),
        ),
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
