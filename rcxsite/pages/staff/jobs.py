"""/staff/jobs: outgoing mail and background jobs, for admins (the server checks every
event)."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.form_fields import action_button
from rcxsite.components.staff_ui import data_table, notices, page_heading
from rcxsite.content.routes import Route
from rcxsite.state.staff.jobs import StaffJobsState


def staff_jobs_page(route: Route) -> rx.Component:
    return rx.el.div(
        page_heading("Mail and jobs"),
        notices(StaffJobsState.error, StaffJobsState.notice),
        rx.el.p(
            StaffJobsState.queued.to(str),
            " waiting, ",
            StaffJobsState.failed_total.to(str),
            " failed. Mail is retried for 24 hours before it counts as failed; fix the cause "
            "(the mail server, the address), then retry it.",
            class_name="staff-note",
        ),
        data_table(
            "Waiting and failed, by kind",
            ("Kind", "Waiting", "Failed", "Oldest waiting"),
            StaffJobsState.kinds,
            lambda row: (row["kind"], row["queued"], row["failed"], row["oldest"]),
            empty="Nothing is waiting and nothing has failed.",
        ),
        data_table(
            "Failed",
            ("Job", "Kind", "Attempts", "Last error", "Failed at", "Action"),
            StaffJobsState.failed,
            lambda row: (
                "#" + row["id"].to(str),
                row["kind"],
                row["attempts"],
                row["error"],
                row["when"],
                action_button(
                    "Retry",
                    on_click=StaffJobsState.retry(row["id"]),
                    aria_label="Retry job " + row["id"].to(str),
                ),
            ),
            empty="No failed mail or job.",
        ),
    )
