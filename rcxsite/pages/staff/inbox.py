"""/staff: the sales inbox (every staff role reads it; admin and sales work it).

Each row is one link (its name, stretched over the row by CSS: `.staff-row-link`), so the
whole row opens the request and a keyboard or screen reader meets one link per row. Roles
that work requests also get a checkbox per row and, with rows ticked, one form that
assigns them or sets their status."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from rcxsite.components.form_fields import (
    action_button,
    control_attrs,
    form,
    labelled,
    status_message,
)
from rcxsite.components.react import nav_link
from rcxsite.components.staff_ui import badge, data_table, notices, page_heading, pager
from rcxsite.content.routes import Route
from rcxsite.core.permissions import Permission
from rcxsite.leads.statuses import QUOTE_STATUSES, STATUS_LABELS
from rcxsite.pages.staff.shared import lost_reason_field
from rcxsite.staff.inbox import ALL, MINE, SORTS, STATUS_FILTERS, UNASSIGNED
from rcxsite.staff.inbox_query import SEARCH_MAX
from rcxsite.state.staff.access import role_may
from rcxsite.state.staff.inbox import StaffInboxState

_LABELS = {**STATUS_LABELS, ALL: "All"}
_STATUS_OPTIONS = tuple((status, _LABELS.get(status, status)) for status in STATUS_FILTERS)
_COLUMNS = ("Received", "Name", "Company", "Call", "Service", "Budget", "Status", "Owner")
# The first column of the roles that may change several requests at once.
_SELECT_COLUMN = "Select"
_SELECTION_ERRORS = StaffInboxState.selection_errors
# The columns a header click sorts by (inbox.SORTS), by header.
_SORTED_BY = {"Received": "received", "Call": "call", "Status": "status", "Owner": "owner"}
assert set(_SORTED_BY.values()) == set(SORTS)
# The sort select's options (a phone has no headers to click): value, label.
_SORT_OPTIONS = (
    ("", "Default (New: overdue first)"),
    ("-received", "Newest first"),
    ("received", "Oldest first"),
    ("call", "Call, soonest first"),
    ("-call", "Call, latest first"),
    ("status", "Status, New first"),
    ("-status", "Status, Spam first"),
    ("owner", "Owner, A to Z"),
    ("-owner", "Owner, Z to A"),
)


def _chips() -> rx.Component:
    """How many requests each status holds under the other filters; a click shows them."""
    return rx.el.div(
        rx.foreach(
            StaffInboxState.counts,
            lambda chip: rx.el.button(
                chip["label"],
                " ",
                rx.el.span(chip["count"], class_name="staff-chip-count"),
                # New requests past a working day: "New 12 · 3 overdue".
                rx.cond(
                    chip["overdue"] != "",
                    rx.el.span(" · ", chip["overdue"], " overdue", class_name="staff-chip-overdue"),
                ),
                type="button",
                class_name="staff-chip",
                aria_pressed=rx.cond(
                    StaffInboxState.status_filter == chip["value"], "true", "false"
                ),
                on_click=StaffInboxState.filter_by("status", chip["value"]),
            ),
        ),
        rx.el.button(
            "Calls today ",
            rx.el.span(StaffInboxState.calls_today_count, class_name="staff-chip-count"),
            type="button",
            class_name="staff-chip staff-chip-calls",
            aria_pressed=rx.cond(StaffInboxState.calls_today != "", "true", "false"),
            on_click=StaffInboxState.toggle_calls_today,
        ),
        class_name="staff-chips",
    )


def _sort_select() -> rx.Component:
    errors = StaffInboxState.filter_errors
    return labelled(
        "Sort by",
        "inbox-sort",
        rx.el.select(
            *[rx.el.option(label, value=value) for value, label in _SORT_OPTIONS],
            name="sort",
            value=StaffInboxState.sort,
            on_change=lambda value: StaffInboxState.filter_by("sort", value),
            **control_attrs("inbox-sort", errors["sort"]),
        ),
        errors["sort"],
    )


def _sort_header(text: str, column: str) -> tuple[rx.Component, rx.Var[str]]:
    """A header that sorts by its column, then reverses it; `aria-sort` says which way."""
    order = rx.cond(
        StaffInboxState.sort == column,
        "ascending",
        rx.cond(StaffInboxState.sort == f"-{column}", "descending", "none"),
    )
    button = rx.el.button(
        text,
        rx.el.span(
            rx.cond(order == "ascending", "▲", rx.cond(order == "descending", "▼", "")),
            aria_hidden="true",
            class_name="staff-sort-mark",
        ),
        type="button",
        class_name="staff-sort",
        on_click=StaffInboxState.sort_by(column),
    )
    # A phone reads the header's name, not the button it hides (see accounts.css).
    return rx.fragment(rx.el.span(text, class_name="staff-sort-name"), button), order


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
                _sort_select(),
                _date_input("From", "since", StaffInboxState.since),
                _date_input("To", "until", StaffInboxState.until),
                class_name="staff-form-row",
            ),
            class_name="staff-filters",
        ),
        on_submit=StaffInboxState.apply_filter,
        reset_on_submit=False,
        role="search",
        class_name="staff-form",
    )


# A cell of several parts is one element: on a phone each cell is a grid of its label
# and one value.
def _received(row: ObjectVar[dict[str, str]]) -> rx.Component:
    """How long ago ("2 h"), then when."""
    return rx.el.span(
        rx.el.span(row["age"], class_name="staff-age"),
        rx.el.span(", ", class_name="sr-only"),
        rx.el.span(row["received"], class_name="staff-received"),
    )


def _status(row: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.el.span(
        row["status"],
        rx.cond(row["overdue"] != "", rx.fragment(" ", badge(row["overdue"], tone="overdue"))),
    )


def _cells(row: ObjectVar[dict[str, str]]) -> list[rx.Component | rx.Var[str]]:
    return [
        _received(row),
        nav_link(row["name"], to=row["path"], class_name="staff-record-link staff-row-link"),
        row["company"],
        row["call"],
        row["service"],
        row["budget"],
        _status(row),
        row["owner"],
    ]


def _row_checkbox(row: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.el.input(
        type="checkbox",
        checked=StaffInboxState.selected.contains(row["id"]),
        on_change=StaffInboxState.toggle_row(row["id"]),
        aria_label=row["select_label"],
        class_name="staff-row-select",
    )


def _table() -> rx.Component:
    """The rows; with a checkbox first for the roles that may change them."""
    empty = "No quote requests match."
    sortable = {text: _sort_header(text, column) for text, column in _SORTED_BY.items()}
    return rx.el.div(
        rx.cond(
            role_may(Permission.WORK_QUOTES),
            data_table(
                "Quote requests",
                (_SELECT_COLUMN, *_COLUMNS),
                StaffInboxState.rows,
                lambda row: (_row_checkbox(row), *_cells(row)),
                empty=empty,
                sortable=sortable,
            ),
            data_table(
                "Quote requests",
                _COLUMNS,
                StaffInboxState.rows,
                _cells,
                empty=empty,
                sortable=sortable,
            ),
        ),
        class_name="staff-inbox-list",
    )


def _selection_select(label: str, name: str, *options: rx.Component) -> rx.Component:
    """A select of the selection's form, "No change" first."""
    field_id = f"selection-{name}"
    return labelled(
        label,
        field_id,
        rx.el.select(
            rx.el.option("No change", value=""),
            *options,
            name=name,
            default_value="",
            **control_attrs(field_id, _SELECTION_ERRORS[name]),
        ),
        _SELECTION_ERRORS[name],
    )


def _selection_form() -> rx.Component:
    """What to do to the ticked requests: each is changed as its own page would change
    it (its history and the audit log say so, one line per request)."""
    return form(
        rx.el.div(
            _selection_select(
                "Assign to",
                "owner",
                rx.el.option("Unassigned", value=UNASSIGNED),
                rx.foreach(
                    StaffInboxState.members,
                    lambda member: rx.el.option(member["name"], value=member["id"]),
                ),
            ),
            _selection_select(
                "Set status",
                "status",
                *[rx.el.option(STATUS_LABELS[status], value=status) for status in QUOTE_STATUSES],
            ),
            lost_reason_field("selection-reason", _SELECTION_ERRORS["reason"]),
            class_name="staff-form-row",
        ),
        rx.el.div(
            rx.el.button("Apply to selected", type="submit", class_name="button button-primary"),
            action_button("Assign to me", on_click=StaffInboxState.assign_selection_to_me),
            class_name="staff-actions",
        ),
        status_message(StaffInboxState.selection_error, kind="error"),
        key=StaffInboxState.selection_revision,
        on_submit=StaffInboxState.change_selection,
        reset_on_submit=False,
        aria_label="Change the selected requests",
        class_name="staff-form staff-selection-form",
    )


def _selection() -> rx.Component:
    """ "Select all on this page", how many are ticked, and with any, the form."""
    count = StaffInboxState.selected.length()
    every = (count == StaffInboxState.rows.length()) & (count > 0)
    return rx.cond(
        role_may(Permission.WORK_QUOTES) & (StaffInboxState.rows.length() > 0),
        rx.el.div(
            rx.el.div(
                rx.el.label(
                    rx.el.input(
                        type="checkbox",
                        checked=every,
                        on_change=StaffInboxState.toggle_page,
                        class_name="staff-row-select",
                    ),
                    " Select all on this page",
                    class_name="staff-select-all",
                ),
                rx.el.p(
                    rx.cond(count > 0, rx.fragment(count, " selected"), ""),
                    aria_live="polite",
                    class_name="staff-selection-count",
                ),
                class_name="staff-selection-bar",
            ),
            rx.cond(count > 0, _selection_form()),
            class_name="staff-selection",
        ),
    )


def staff_inbox_page(route: Route) -> rx.Component:
    """Newest requests first, 50 a page; "Export CSV" writes what the filter selects."""
    return rx.el.div(
        page_heading(
            "Quote requests",
            rx.cond(
                role_may(Permission.WORK_QUOTES),
                action_button("Export CSV", on_click=StaffInboxState.export_csv),
            ),
        ),
        notices(StaffInboxState.error, StaffInboxState.notice),
        _chips(),
        _filter_form(),
        _selection(),
        _table(),
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
