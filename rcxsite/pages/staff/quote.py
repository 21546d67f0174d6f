"""/staff/quotes/<id>: one quote request. Every role that reads the inbox sees it; the
change controls show only for roles that may work requests (the server refuses the
others' events anyway). The work form (status, reason, owner) is the page's main action;
"Mark as spam" is a quiet button after it."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ArrayVar

from rcxsite.components.form_fields import (
    action_button,
    control_attrs,
    labelled,
    textarea_field,
)
from rcxsite.components.staff_ui import notices, page_heading
from rcxsite.content.routes import Route
from rcxsite.core.permissions import Permission
from rcxsite.leads.statuses import QUOTE_STATUSES, SPAM, STATUS_LABELS
from rcxsite.models.staff import NOTE_MAX
from rcxsite.pages.staff.shared import facts, link, linked_facts, lost_reason_field, staff_form
from rcxsite.state.staff.access import role_may
from rcxsite.state.staff.quote import StaffQuoteState

_ERRORS = StaffQuoteState.field_errors


def _not_spam_button() -> rx.Component:
    """A request in the spam folder: rescuing it is what a member opened it for."""
    return rx.cond(
        StaffQuoteState.status == SPAM,
        action_button("Not spam", on_click=StaffQuoteState.not_spam, kind="primary"),
    )


def _mark_spam_button() -> rx.Component:
    return rx.cond(
        StaffQuoteState.status != SPAM,
        rx.el.div(
            action_button("Mark as spam", on_click=StaffQuoteState.mark_spam, kind="link"),
            class_name="staff-actions",
        ),
    )


def _contact() -> rx.Component:
    """Reply by mail (subject and greeting filled in), and log a contact made elsewhere."""
    return rx.el.div(
        rx.cond(
            StaffQuoteState.reply != "",
            rx.el.a(
                "Reply by email", href=StaffQuoteState.reply, class_name="button button-primary"
            ),
        ),
        action_button("Log a call", on_click=StaffQuoteState.log_contact("call")),
        action_button("Log an email", on_click=StaffQuoteState.log_contact("email")),
        class_name="staff-actions",
    )


def _assign_to_me() -> rx.Component:
    return rx.cond(
        StaffQuoteState.assignable,
        rx.el.div(
            action_button("Assign to me", on_click=StaffQuoteState.assign_to_me),
            class_name="staff-actions",
        ),
    )


def _work_form() -> rx.Component:
    """Status, reason and owner with one Save."""
    return staff_form(
        rx.el.div(
            labelled(
                "Status",
                "quote-status",
                rx.el.select(
                    *[
                        rx.el.option(STATUS_LABELS[status], value=status)
                        for status in QUOTE_STATUSES
                    ],
                    name="status",
                    default_value=StaffQuoteState.status,
                    **control_attrs("quote-status", _ERRORS["status"]),
                ),
                _ERRORS["status"],
            ),
            lost_reason_field(
                "quote-reason", _ERRORS["reason"], default_value=StaffQuoteState.lost_reason
            ),
            labelled(
                "Owner",
                "quote-owner",
                rx.el.select(
                    rx.el.option("Unassigned", value=""),
                    rx.foreach(
                        StaffQuoteState.owners,
                        lambda member: rx.el.option(member["name"], value=member["id"]),
                    ),
                    name="owner",
                    default_value=StaffQuoteState.owner_id,
                    **control_attrs("quote-owner", _ERRORS["owner"]),
                ),
                _ERRORS["owner"],
            ),
            class_name="staff-form-row",
        ),
        submit="Save",
        on_submit=StaffQuoteState.save_work,
        key=StaffQuoteState.revision,
        aria_label="Work on this request",
    )


def _entries(
    rows: ArrayVar[list[dict[str, str]]], meta: tuple[str, str], text: str, *, empty: str
) -> rx.Component:
    """Notes or history lines, oldest first: who and when, then what."""
    who, when = meta
    return rx.cond(
        rows.length() > 0,
        rx.el.ol(
            rx.foreach(
                rows,
                lambda row: rx.el.li(
                    rx.el.p(row[who], " · ", row[when], class_name="staff-entry-meta"),
                    rx.el.p(row[text], class_name="staff-entry-text"),
                ),
            ),
            class_name="staff-entries",
        ),
        rx.el.p(empty, class_name="staff-empty"),
    )


def _notes() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Internal notes", class_name="staff-subtitle"),
        _entries(StaffQuoteState.notes, ("author", "time"), "body", empty="No notes yet."),
        rx.cond(
            role_may(Permission.WORK_QUOTES),
            staff_form(
                # The row spans the column (the form's own items take their content's
                # width), so the box is as wide as the notes it adds to.
                rx.el.div(
                    textarea_field(
                        "Note",
                        "note",
                        error=_ERRORS["note"],
                        field_id="quote-note",
                        rows=4,
                        max_length=NOTE_MAX,
                    ),
                    class_name="staff-form-row",
                ),
                submit="Add note",
                on_submit=StaffQuoteState.add_note,
                key=StaffQuoteState.note_revision,
            ),
        ),
        class_name="staff-section",
    )


def _call() -> rx.Component:
    """The booked call; once its time has come, those who work requests mark whether it
    took place."""
    return rx.cond(
        StaffQuoteState.call.length() > 0,
        rx.el.section(
            rx.el.h2("Call", id="staff-call-heading", class_name="staff-subtitle"),
            facts(StaffQuoteState.call),
            rx.cond(
                role_may(Permission.WORK_QUOTES) & StaffQuoteState.call_markable,
                rx.el.div(
                    action_button("Held", on_click=StaffQuoteState.mark_call_held),
                    action_button("No-show", on_click=StaffQuoteState.mark_call_no_show),
                    class_name="staff-actions",
                ),
            ),
            aria_labelledby="staff-call-heading",
            class_name="staff-section",
        ),
    )


def _account() -> rx.Component:
    """Whether the sender has a (verified) account: a read-only summary every reader of
    the request sees; its staff page only for those who may open it."""
    return rx.el.section(
        rx.el.h2("Customer account", id="staff-account-heading", class_name="staff-subtitle"),
        rx.cond(
            StaffQuoteState.account.length() > 0,
            facts(StaffQuoteState.account),
            rx.el.p("No account", class_name="staff-note"),
        ),
        rx.cond(
            StaffQuoteState.customer_path != "",
            rx.el.p(link("Open the customer's account", StaffQuoteState.customer_path)),
        ),
        aria_labelledby="staff-account-heading",
        class_name="staff-section",
    )


def _found() -> rx.Component:
    may_work = role_may(Permission.WORK_QUOTES)
    return rx.fragment(
        page_heading(
            "Quote request from " + StaffQuoteState.name, rx.cond(may_work, _not_spam_button())
        ),
        notices(StaffQuoteState.error, StaffQuoteState.notice),
        linked_facts(StaffQuoteState.facts),
        _account(),
        _call(),
        rx.cond(
            may_work,
            rx.el.section(
                rx.el.h2(
                    "Work on this request", id="staff-work-heading", class_name="staff-subtitle"
                ),
                _assign_to_me(),
                _contact(),
                _work_form(),
                _mark_spam_button(),
                aria_labelledby="staff-work-heading",
                class_name="staff-section",
            ),
        ),
        _notes(),
        rx.el.section(
            rx.el.h2("History", class_name="staff-subtitle"),
            _entries(StaffQuoteState.history, ("who", "when"), "what", empty="No changes yet."),
            class_name="staff-section",
        ),
    )


def staff_quote_page(route: Route) -> rx.Component:
    """The request once loaded; until then (or for an unknown id) its heading and why."""
    return rx.el.div(
        rx.cond(
            StaffQuoteState.found,
            _found(),
            rx.fragment(
                page_heading(route.title), notices(StaffQuoteState.error, StaffQuoteState.notice)
            ),
        ),
        class_name="staff-page",
    )
