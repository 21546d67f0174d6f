"""/staff: the sales inbox (every staff role reads it; admin and sales work it)."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.form_fields import form
from rcxsite.components.staff_ui import data_table, notices, page_heading, pager
from rcxsite.core.permissions import Permission
from rcxsite.leads.statuses import STATUS_LABELS
from rcxsite.pages.staff.shared import control_attrs, labelled, link
from rcxsite.routes import Route
from rcxsite.staff.inbox import ALL, MINE, STATUS_FILTERS, UNASSIGNED
from rcxsite.staff.inbox_query import SEARCH_MAX
from rcxsite.state.staff.access import role_may
from rcxsite.state.staff.inbox import StaffInboxState

_LABELS = {**STATUS_LABELS, ALL: "All"}
_STATUS_OPTIONS = tuple((status, _LABELS.get(status, status)) for status in STATUS_FILTERS)
_COLUMNS = ("Received", "Name", "Company", "Call", "Service", "Budget", "Status", "Owner")


def _chips() -> rx.Component:
    """How many requests each status holds under the other filters; a click shows them."""
    return rx.el.div(
        rx.foreach(
            StaffInboxState.counts,
            lambda chip: rx.el.button(
                chip["label"],
                " ",
                rx.el.span(chip["count"], class_name="staff-chip-count"),
                type="button",
                class_name="staff-chip",
                aria_pressed=rx.cond(
                    StaffInboxState.status_filter == chip["value"], "true", "false"
                ),
                on_click=StaffInboxState.filter_by("status", chip["value"]),
            ),
        ),
        class_name="staff-chips",
    )


def _status_select() -> rx.Component:
    errors = StaffInboxState.filter_errors
    return labelled(
        "Status",
        "inbox-status",
        rx.el.select(
            *[rx.el.option(label, value=value) for value, label in _STATUS_OPTIONS],
            name="status",
            value=StaffInboxState.status_filter,
            on_change=lambda value: StaffInboxState.filter_by("status", value),
            **control_attrs("inbox-status", errors["status"]),
        ),
        errors["status"],
    )


def _owner_select() -> rx.Component:
    errors = StaffInboxState.filter_errors
    return labelled(
        "Owner",
        "inbox-owner",
        rx.el.select(
            rx.el.option("Any", value=""),
            rx.el.option("Mine", value=MINE),
            rx.el.option("Unassigned", value=UNASSIGNED),
            rx.foreach(
                StaffInboxState.members,
                lambda member: rx.el.option(member["name"], value=member["id"]),
            ),
            name="owner",
            value=StaffInboxState.owner_filter,
            on_change=lambda value: StaffInboxState.filter_by("owner", value),
            **control_attrs("inbox-owner", errors["owner"]),
        ),
        errors["owner"],
    )


def _date_input(label: str, name: str, value: rx.Var[str]) -> rx.Component:
    """A day applied as soon as it is a whole date (a phone's date picker has no Enter)."""
    field_id = f"inbox-{name}"
    return labelled(
        label,
        field_id,
        rx.el.input(
            type="date",
            name=name,
            default_value=value,
            on_change=lambda day: StaffInboxState.filter_by(name, day),
            **control_attrs(field_id),
        ),
    )


def _filter_form() -> rx.Component:
    """Search first; the other filters fold behind "Filters" on a phone (a salesperson
    mostly searches or taps a status chip), and are always open on wider screens."""
    errors = StaffInboxState.filter_errors
    return form(
        rx.el.div(
            labelled(
                "Search",
                "inbox-search",
                rx.el.input(
                    type="search",
                    name="search",
                    default_value=StaffInboxState.search,
                    max_length=SEARCH_MAX,
                    auto_complete="off",
                    **control_attrs("inbox-search", errors["search"]),
                ),
                errors["search"],
            ),
            rx.el.button("Filter", type="submit", class_name="button button-primary"),
            class_name="staff-search-row",
        ),
        rx.el.details(
            rx.el.summary("Filters", class_name="staff-filters-toggle"),
            rx.el.div(
                _status_select(),
                _owner_select(),
                _date_input("From", "since", StaffInboxState.since),
                _date_input("To", "until", StaffInboxState.until),
                class_name="staff-form-row",
            ),
            class_name="staff-filters",
        ),
        on_submit=StaffInboxState.apply_filter,
        reset_on_submit=False,
        no_validate=True,
        role="search",
        class_name="staff-form",
    )


def staff_inbox_page(route: Route) -> rx.Component:
    """Newest requests first, 50 a page; "Export CSV" writes what the filter selects."""
    return rx.el.div(
        page_heading(
            "Quote requests",
            rx.cond(
                role_may(Permission.WORK_QUOTES),
                rx.el.button(
                    "Export CSV",
                    type="button",
                    class_name="button button-outline",
                    on_click=StaffInboxState.export_csv,
                ),
            ),
        ),
        notices(StaffInboxState.error, ""),
        _chips(),
        _filter_form(),
        data_table(
            "Quote requests",
            _COLUMNS,
            StaffInboxState.rows,
            lambda r: (
                r["received"],
                link(r["name"], r["path"]),
                r["company"],
                r["call"],
                r["service"],
                r["budget"],
                r["status"],
                r["owner"],
            ),
            empty="No quote requests match.",
        ),
        pager(
            StaffInboxState.page,
            StaffInboxState.pages,
            StaffInboxState.total,
            StaffInboxState.go_to_page,
            noun="request",
            nouns="requests",
        ),
        class_name="staff-page",
    )


__all__ = ["staff_inbox_page"]
