"""Who may do what in the inbox, checked by the service itself: every role reads, admin
and sales change and export, support and nobody-signed-in are refused with 403 and
leave no trace."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.staff.inbox import (
    InboxFilter,
    NoteInput,
    OwnerInput,
    StatusInput,
    add_note,
    change_owner,
    change_status,
    export_csv,
    inbox_page,
    mark_spam,
    not_spam,
    quote_detail,
)
from tests.support.quotes import add_quote, changes, notes, stored
from tests.support.staff import add_member, audit_entries

Call = Callable[[StaffActor | None, int], Any]

READS: dict[str, Call] = {
    "inbox_page": lambda actor, _id: inbox_page(actor=actor, where=InboxFilter()),
    "quote_detail": lambda actor, quote_id: quote_detail(actor=actor, quote_id=quote_id),
}
WORK: dict[str, Call] = {
    "change_status": lambda actor, quote_id: change_status(
        StatusInput.parse({"status": "won"}), actor=actor, quote_id=quote_id
    ),
    "change_owner": lambda actor, quote_id: change_owner(
        OwnerInput.parse({"owner": ""}), actor=actor, quote_id=quote_id
    ),
    "add_note": lambda actor, quote_id: add_note(
        NoteInput.parse({"note": "Hello"}), actor=actor, quote_id=quote_id
    ),
    "mark_spam": lambda actor, quote_id: mark_spam(actor=actor, quote_id=quote_id),
    "not_spam": lambda actor, quote_id: not_spam(actor=actor, quote_id=quote_id),
    "export_csv": lambda actor, _id: export_csv(actor=actor, where=InboxFilter()),
}


def untouched(quote_id: int, owner_id: int) -> None:
    quote = stored(quote_id)
    assert (quote.status, quote.owner_id) == ("new", owner_id)
    assert changes(quote_id) == [] and notes(quote_id) == [] and audit_entries() == []


@pytest.mark.parametrize("role", ["admin", "sales", "support"])
@pytest.mark.parametrize("name", READS)
def test_every_role_may_read(role: str, name: str) -> None:
    member = add_member("Reader", "reader@rcx.example", role)
    quote_id = add_quote()
    assert READS[name](member, quote_id) is not None


@pytest.mark.parametrize("name", WORK)
def test_support_may_not_change_or_export(name: str) -> None:
    owner = add_member("Sam Sales", "sam@rcx.example", "sales")
    support = add_member("Sue Support", "sue@rcx.example", "support")
    quote_id = add_quote(owner_id=owner.member_id)

    with pytest.raises(ServiceError) as refused:
        WORK[name](support, quote_id)

    assert (refused.value.status, refused.value.message) == (
        403,
        "You don't have access to this page.",
    )
    untouched(quote_id, owner.member_id)


@pytest.mark.parametrize("name", [*READS, *WORK])
def test_nobody_signed_in_may_do_nothing(name: str) -> None:
    owner = add_member("Sam Sales", "sam@rcx.example", "sales")
    quote_id = add_quote(owner_id=owner.member_id)

    with pytest.raises(ServiceError) as refused:
        {**READS, **WORK}[name](None, quote_id)

    assert refused.value.status == 403
    untouched(quote_id, owner.member_id)


@pytest.mark.parametrize("name", WORK)
def test_a_refusal_comes_before_the_404(name: str) -> None:
    support = add_member("Sue Support", "sue@rcx.example", "support")
    with pytest.raises(ServiceError) as refused:
        WORK[name](support, 424242)
    assert refused.value.status == 403


@pytest.mark.parametrize("role", ["admin", "sales"])
@pytest.mark.parametrize("name", [n for n in WORK if n != "not_spam"])
def test_admin_and_sales_may_change_and_export_each_with_one_audit_entry(
    role: str, name: str
) -> None:
    member = add_member("Worker", "worker@rcx.example", role)
    quote_id = add_quote(owner_id=member.member_id)

    WORK[name](member, quote_id)

    [entry] = audit_entries()
    assert (entry.actor_id, entry.actor_name) == (member.member_id, "Worker")


def test_not_spam_is_one_audit_entry_too() -> None:
    member = add_member("Worker", "worker@rcx.example", "sales")
    quote_id = add_quote(status="spam")
    not_spam(actor=member, quote_id=quote_id)
    assert [e.action for e in audit_entries()] == ["quote_not_spam"]
