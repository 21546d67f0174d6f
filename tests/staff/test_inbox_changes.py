"""What sales change on a request: status (Lost needs a reason), owner, notes, spam; each
with its history line and exactly one audit entry."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.staff.inbox import (
    ContactInput,
    NoteInput,
    OwnerInput,
    StatusInput,
    add_note,
    change_owner,
    change_status,
    log_contact,
    mark_spam,
    not_spam,
    quote_detail,
)
from tests.support.quotes import add_quote, changes, notes, stored
from tests.support.staff import add_member, audit_entries


@pytest.fixture
def sales() -> StaffActor:
    return add_member("Sam Sales", "sam@rcx.example", "sales")


def status(value: str, reason: str = "") -> StatusInput:
    return StatusInput.parse({"status": value, "reason": reason})


def history(quote_id: int) -> list[tuple[str, str, str, str]]:
    return [(c.actor_name, c.field, c.old_value, c.new_value) for c in changes(quote_id)]


def audit_lines() -> list[tuple[str, str, str, str]]:
    return [(e.actor_name, e.action, e.target, e.detail) for e in audit_entries()]


def test_a_status_change_is_stored_with_history_and_one_audit_entry(sales: StaffActor) -> None:
    quote_id = add_quote()

    said = change_status(status("contacted"), actor=sales, quote_id=quote_id)

    assert said == "Status changed to Contacted."
    assert stored(quote_id).status == "contacted"
    assert history(quote_id) == [("Sam Sales", "status", "New", "Contacted")]
    assert audit_lines() == [
        ("Sam Sales", "quote_status_changed", f"quote #{quote_id}", "New → Contacted")
    ]
    assert audit_entries()[0].actor_id == sales.member_id


def test_an_unchanged_status_writes_nothing(sales: StaffActor) -> None:
    quote_id = add_quote(status="qualified")
    assert change_status(status("qualified"), actor=sales, quote_id=quote_id) == (
        "Nothing to change."
    )
    assert history(quote_id) == [] and audit_entries() == []


@pytest.mark.parametrize("reason", ["", "   "])
def test_lost_requires_a_reason(reason: str) -> None:
    with pytest.raises(ServiceError) as refused:
        status("lost", reason)
    assert refused.value.status == 422
    assert dict(refused.value.fields) == {"reason": "Please give a reason for Lost"}


@pytest.mark.parametrize(
    ("fields", "messages"),
    [
        ({"status": "archived"}, {"status": "Please choose a status."}),
        ({"status": ""}, {"status": "Please choose a status."}),
        ({"status": "lost", "reason": "x" * 501}, {"reason": "Max 500 characters"}),
        (
            {"status": "lost", "reason": "bad\x00reason"},
            {"reason": "Contains characters that are not allowed"},
        ),
    ],
)
def test_status_input_refusals(fields: dict[str, str], messages: dict[str, str]) -> None:
    form, errors = StatusInput.read(fields)
    assert form is None and errors == messages


def test_lost_keeps_its_reason_and_other_statuses_drop_it(sales: StaffActor) -> None:
    quote_id = add_quote(status="qualified")
    assert status("won", "ignored").reason == ""

    change_status(status("lost", "  Went with a competitor "), actor=sales, quote_id=quote_id)
    detail = quote_detail(actor=sales, quote_id=quote_id)
    assert (detail.status, detail.lost_reason) == ("lost", "Went with a competitor")

    change_status(status("lost", "Budget cut"), actor=sales, quote_id=quote_id)
    change_status(status("contacted"), actor=sales, quote_id=quote_id)

    assert stored(quote_id).lost_reason == ""
    assert history(quote_id) == [
        ("Sam Sales", "status", "Qualified", "Lost: Went with a competitor"),
        ("Sam Sales", "status", "Lost: Went with a competitor", "Lost: Budget cut"),
        ("Sam Sales", "status", "Lost: Budget cut", "Contacted"),
    ]
    assert [line[1] for line in audit_lines()] == ["quote_status_changed"] * 3


def test_owner_changes_between_members_and_unassigned(sales: StaffActor) -> None:
    admin = add_member("Ada Admin", "ada@rcx.example", "admin")
    quote_id = add_quote()

    assert (
        change_owner(
            OwnerInput.parse({"owner": str(sales.member_id)}), actor=admin, quote_id=quote_id
        )
        == "Owner changed to Sam Sales."
    )
    change_owner(OwnerInput.parse({"owner": str(admin.member_id)}), actor=sales, quote_id=quote_id)
    assert stored(quote_id).owner_id == admin.member_id
    change_owner(OwnerInput.parse({"owner": ""}), actor=admin, quote_id=quote_id)

    assert stored(quote_id).owner_id is None
    assert history(quote_id) == [
        ("Ada Admin", "owner", "Unassigned", "Sam Sales"),
        ("Sam Sales", "owner", "Sam Sales", "Ada Admin"),
        ("Ada Admin", "owner", "Ada Admin", "Unassigned"),
    ]
    assert audit_lines() == [
        ("Ada Admin", "quote_owner_changed", f"quote #{quote_id}", "Unassigned → Sam Sales"),
        ("Sam Sales", "quote_owner_changed", f"quote #{quote_id}", "Sam Sales → Ada Admin"),
        ("Ada Admin", "quote_owner_changed", f"quote #{quote_id}", "Ada Admin → Unassigned"),
    ]
    # The same owner again changes nothing.
    assert (
        change_owner(OwnerInput.parse({"owner": ""}), actor=admin, quote_id=quote_id)
        == "Nothing to change."
    )
    assert len(audit_entries()) == 3


def test_only_enabled_admin_or_sales_members_may_own(sales: StaffActor) -> None:
    support = add_member("Sue Support", "sue@rcx.example", "support")
    gone = add_member(
        "Gone Sales", "gone@rcx.example", "sales", disabled_at=datetime(2026, 1, 1, tzinfo=UTC)
    )
    quote_id = add_quote(owner_id=sales.member_id)

    for owner in (str(support.member_id), str(gone.member_id), "999999"):
        with pytest.raises(ServiceError) as refused:
            change_owner(OwnerInput.parse({"owner": owner}), actor=sales, quote_id=quote_id)
        assert refused.value.status == 422
        assert dict(refused.value.fields) == {"owner": "Please choose an owner from the list."}

    assert stored(quote_id).owner_id == sales.member_id
    assert history(quote_id) == [] and audit_entries() == []


@pytest.mark.parametrize("owner", ["abc", "-1", "0", "1.5", "99999999999999"])
def test_owner_input_takes_only_a_member_id_or_nothing(owner: str) -> None:
    form, errors = OwnerInput.read({"owner": owner})
    assert form is None
    assert errors == {"owner": "Please choose an owner from the list."}


def test_notes_are_appended_oldest_first_with_author(sales: StaffActor) -> None:
    admin = add_member("Ada Admin", "ada@rcx.example", "admin")
    quote_id = add_quote()

    assert (
        add_note(NoteInput.parse({"note": "Called, no answer."}), actor=sales, quote_id=quote_id)
        == "Note added."
    )
    add_note(
        NoteInput.parse({"note": " Sent the proposal.\r\nFollow up Friday.\t "}),
        actor=admin,
        quote_id=quote_id,
    )

    detail = quote_detail(actor=sales, quote_id=quote_id)
    assert [(n.author_name, n.body) for n in detail.notes] == [
        ("Sam Sales", "Called, no answer."),
        ("Ada Admin", "Sent the proposal.\nFollow up Friday."),
    ]
    assert detail.notes[0].created_at <= detail.notes[1].created_at
    assert [n.author_id for n in notes(quote_id)] == [sales.member_id, admin.member_id]
    assert [(e.action, e.target) for e in audit_entries()] == [
        ("quote_note_added", f"quote #{quote_id}")
    ] * 2
    # Notes are not history lines.
    assert detail.history == []


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("", "Please write a note."),
        (" \n\t ", "Please write a note."),
        ("x" * 5001, "Max 5000 characters"),
        ("beep\x07", "Contains characters that are not allowed"),
        ("line\u2028separator", "Contains characters that are not allowed"),
    ],
)
def test_note_input_refusals(body: str, message: str) -> None:
    form, errors = NoteInput.read({"note": body})
    assert form is None and errors == {"note": message}


def test_a_5000_character_note_is_kept_whole(sales: StaffActor) -> None:
    quote_id = add_quote()
    add_note(NoteInput.parse({"note": "n" * 5000}), actor=sales, quote_id=quote_id)
    assert [len(n.body) for n in notes(quote_id)] == [5000]


def test_the_service_offers_no_way_to_edit_or_delete_a_note() -> None:
    from rcxsite.staff import inbox

    assert not [
        name
        for name in inbox.__all__
        if "note" in name.lower() and name not in ("NoteInput", "NoteView", "add_note")
    ]


def test_mark_spam_and_rescue_it(sales: StaffActor) -> None:
    quote_id = add_quote(status="lost", lost_reason="No budget")

    assert mark_spam(actor=sales, quote_id=quote_id) == "Marked as spam."
    assert stored(quote_id).status == "spam"
    assert mark_spam(actor=sales, quote_id=quote_id) == "Nothing to change."
    assert not_spam(actor=sales, quote_id=quote_id) == "Moved back to New."
    assert stored(quote_id).status == "new"
    assert not_spam(actor=sales, quote_id=quote_id) == "Nothing to change."

    assert history(quote_id) == [
        ("Sam Sales", "status", "Lost: No budget", "Spam"),
        ("Sam Sales", "status", "Spam", "New"),
    ]
    assert [(e.action, e.target) for e in audit_entries()] == [
        ("quote_marked_spam", f"quote #{quote_id}"),
        ("quote_not_spam", f"quote #{quote_id}"),
    ]


def test_history_on_the_page_is_oldest_first_with_who_and_when(sales: StaffActor) -> None:
    quote_id = add_quote()
    change_status(status("contacted"), actor=sales, quote_id=quote_id)
    change_owner(OwnerInput.parse({"owner": str(sales.member_id)}), actor=sales, quote_id=quote_id)
    change_status(status("won"), actor=sales, quote_id=quote_id)

    lines = quote_detail(actor=sales, quote_id=quote_id).history

    assert [(h.actor_name, h.field, h.old_value, h.new_value) for h in lines] == [
        ("Sam Sales", "status", "New", "Contacted"),
        ("Sam Sales", "owner", "Unassigned", "Sam Sales"),
        ("Sam Sales", "status", "Contacted", "Won"),
    ]
    assert lines[0].created_at <= lines[1].created_at <= lines[2].created_at
    assert all(h.created_at.tzinfo is not None for h in lines)


@pytest.mark.parametrize(
    "change",
    [
        lambda actor, quote_id: change_status(status("won"), actor=actor, quote_id=quote_id),
        lambda actor, quote_id: change_owner(
            OwnerInput.parse({"owner": ""}), actor=actor, quote_id=quote_id
        ),
        lambda actor, quote_id: add_note(
            NoteInput.parse({"note": "Hi"}), actor=actor, quote_id=quote_id
        ),
        lambda actor, quote_id: mark_spam(actor=actor, quote_id=quote_id),
        lambda actor, quote_id: not_spam(actor=actor, quote_id=quote_id),
    ],
)
def test_changing_an_unknown_request_is_404(
    sales: StaffActor, change: Callable[[StaffActor, int], str]
) -> None:
    with pytest.raises(ServiceError) as missing:
        change(sales, 424242)
    assert (missing.value.status, missing.value.message) == (
        404,
        "This quote request does not exist.",
    )
    assert audit_entries() == []


def test_a_call_or_an_email_made_elsewhere_is_logged_in_the_history_with_who_and_when(
    sales: StaffActor,
) -> None:
    quote_id = add_quote()

    called = log_contact(ContactInput.parse({"kind": "call"}), actor=sales, quote_id=quote_id)
    mailed = log_contact(ContactInput.parse({"kind": "email"}), actor=sales, quote_id=quote_id)

    assert (called, mailed) == ("Phone call logged.", "Email sent logged.")
    assert history(quote_id) == [
        ("Sam Sales", "contact", "", "Phone call"),
        ("Sam Sales", "contact", "", "Email sent"),
    ]
    assert all(change.created_at for change in changes(quote_id))
    assert [line[1] for line in audit_lines()][-2:] == ["quote_contact_logged"] * 2
    with pytest.raises(ServiceError) as refused:
        ContactInput.parse({"kind": "fax"})
    assert refused.value.message == "Please choose a call or an email."
