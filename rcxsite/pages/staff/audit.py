"""/staff/audit: admins only (the server checks every event)."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.form_fields import action_button, text_field
from rcxsite.components.staff_ui import data_table, notices, page_heading, pager
from rcxsite.content.routes import Route
from rcxsite.pages.staff.shared import staff_form
from rcxsite.state.staff.audit import StaffAuditState


def _audit_filter() -> rx.Component:
    return staff_form(
        rx.el.div(
            rx.el.div(
                rx.el.label("Actor", html_for="audit-actor", class_name="field-label"),
                rx.el.select(
                    rx.el.option("Anyone", value=""),
                    rx.foreach(StaffAuditState.actors, lambda a: rx.el.option(a[1], value=a[0])),
                    id="audit-actor",
                    name="actor",
                    class_name="field-input",
                ),
                class_name="field",
            ),
            rx.el.div(
                rx.el.label("Action", html_for="audit-action", class_name="field-label"),
                rx.el.select(
                    rx.el.option("Any action", value=""),
                    rx.foreach(StaffAuditState.actions, lambda a: rx.el.option(a[1], value=a[0])),
                    id="audit-action",
                    name="action",
                    class_name="field-input",
                ),
                class_name="field",
            ),
            text_field("From", "since", error="", field_id="audit-since", input_type="date"),
            text_field("To", "until", error="", field_id="audit-until", input_type="date"),
            class_name="staff-form-row",
        ),
        submit="Filter",
        on_submit=StaffAuditState.apply_filter,
        aria_label="Filter the audit log",
    )


def staff_audit_page(route: Route) -> rx.Component:
    return rx.el.div(
        page_heading(
            "Audit log",
            action_button("Export CSV", on_click=StaffAuditState.export_csv),
        ),
        notices(StaffAuditState.error, ""),
        _audit_filter(),
        data_table(
            "Audit entries",
            ("Time", "Actor", "Action", "Target", "Detail", "Client address"),
            StaffAuditState.rows,
            lambda r: (r["time"], r["actor"], r["action"], r["target"], r["detail"], r["client"]),
            empty="No entries match.",
        ),
        pager(
            StaffAuditState.page,
            StaffAuditState.pages,
            StaffAuditState.total,
            StaffAuditState.go_to_page,
            noun="entry",
            nouns="entries",
        ),
        class_name="staff-page",
    )
