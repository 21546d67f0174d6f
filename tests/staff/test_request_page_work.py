"""The request page's one form of status, reason and owner, and "Assign to me": what the
member changed is applied, each change with its own history line and audit entry as when
made one by one; what they left as shown stays as it is now; a refusal changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rcxsite.core.permissions import OPERATOR, StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.staff.inbox_changes import (
    NOT_AN_OWNER,
    Seen,
    assign_to_me,
    change_owner,
    change_status,
    save_work,
)
from rcxsite.staff.inbox_inputs import (
    OWNER_INVALID,
    REASON_REQUIRED,
    STATUS_INVALID,
    OwnerInput,
    StatusInput,
    WorkInput,
)
from tests.support.quotes import add_quote, changes, stored
from tests.support.staff import add_member, audit_entries, support_actor

NEW_UNASSIGNED = Seen(status="new", lost_reason="", owner_id=None)


@pytest.fixture
def sales() -> StaffActor:
    return add_member("Sam Sales", "sam@rcx.example", "sales")


def work(status: str, owner: StaffActor | None = None, reason: str = "") -> WorkInput:
    owner_id = str(owner.member_id) if owner else ""
    return WorkInput.parse({"status": status, "reason": reason, "owner": owner_id})


def history(quote_id: int) -> list[tuple[str, str, str, str]]:
    return [(c.actor_name, c.field, c.old_value, c.new_value) for c in changes(quote_id)]


def audit_lines() -> list[tuple[str, str, str]]:
    return [(e.action, e.target, e.detail) for e in audit_entries()]


def test_status_and_owner_in_one_save_write_two_history_lines_and_two_audit_entries(
    sales: StaffActor,
) -> None:
    quote_id = add_quote()

    said = save_work(
        work("lost", sales, "Went with an agency"),
        actor=sales,
        quote_id=quote_id,
        seen=NEW_UNASSIGNED,
    )

    assert said == "Status changed to Lost. Owner changed to Sam Sales."
    quote = stored(quote_id)
    assert (quote.status, quote.lost_reason, quote.owner_id) == (
        "lost",
        "Went with an agency",
        sales.member_id,
    )
    assert history(quote_id) == [
        ("Sam Sales", "status", "New", "Lost: Went with an agency"),
        ("Sam Sales", "owner", "Unassigned", "Sam Sales"),
    ]
    target = f"quote #{quote_id}"
    assert audit_lines() == [
        ("quote_status_changed", target, "New → Lost: Went with an agency"),
        ("quote_owner_changed", target, "Unassigned → Sam Sales"),
    ]


def test_the_same_lines_as_the_separate_changes_write(sales: StaffActor) -> None:
    """The bulk action and this form leave the same trace for the same change."""
    one_by_one, in_one_form = add_quote(), add_quote()
    change_status(StatusInput.parse({"status": "contacted"}), actor=sales, quote_id=one_by_one)
    change_owner(
        OwnerInput.parse({"owner": str(sales.member_id)}), actor=sales, quote_id=one_by_one
    )
    save_work(work("contacted", sales), actor=sales, quote_id=in_one_form, seen=NEW_UNASSIGNED)

    assert history(one_by_one) == history(in_one_form)
    by_quote: dict[str, list[tuple[str, str]]] = {}
    for action, target, detail in audit_lines():
        by_quote.setdefault(target, []).append((action, detail))
    assert by_quote[f"quote #{one_by_one}"] == by_quote[f"quote #{in_one_form}"]


@pytest.mark.parametrize(
    ("status", "owned", "said"),
    [
        ("contacted", False, "Status changed to Contacted."),
        ("new", True, "Owner changed to Sam Sales."),
        ("new", False, "Nothing to change."),
    ],
)
def test_only_what_the_member_changed_is_applied(
    sales: StaffActor, status: str, owned: bool, said: str
) -> None:
    quote_id = add_quote()
    form = work(status, sales if owned else None)

    assert save_work(form, actor=sales, quote_id=quote_id, seen=NEW_UNASSIGNED) == said
    assert [line[1] for line in history(quote_id)] == (
        (["status"] if status != "new" else []) + (["owner"] if owned else [])
    )
    assert len(audit_entries()) == len(history(quote_id))


def test_a_field_left_as_shown_does_not_undo_a_change_made_meanwhile(sales: StaffActor) -> None:
    """Two members on one request: the second saves the owner from a page that still
    shows New, and the first one's Qualified stays."""
    colleague = add_member("Cat Colleague", "cat@rcx.example", "sales")
    quote_id = add_quote()
    change_status(StatusInput.parse({"status": "qualified"}), actor=colleague, quote_id=quote_id)

    said = save_work(work("new", sales), actor=sales, quote_id=quote_id, seen=NEW_UNASSIGNED)

    assert said == "Owner changed to Sam Sales."
    assert (stored(quote_id).status, stored(quote_id).owner_id) == ("qualified", sales.member_id)


def test_a_changed_reason_alone_is_a_change_and_an_unchanged_lost_is_none(
    sales: StaffActor,
) -> None:
    quote_id = add_quote(status="lost", lost_reason="Budget cut")
    seen = Seen(status="lost", lost_reason="Budget cut", owner_id=None)

    assert save_work(
        work("lost", reason="Budget cut"), actor=sales, quote_id=quote_id, seen=seen
    ) == ("Nothing to change.")
    save_work(work("lost", reason="Went elsewhere"), actor=sales, quote_id=quote_id, seen=seen)
    assert history(quote_id) == [
        ("Sam Sales", "status", "Lost: Budget cut", "Lost: Went elsewhere"),
    ]


def test_a_current_owner_who_may_no_longer_own_is_kept_when_only_the_status_changes(
    sales: StaffActor,
) -> None:
    gone = add_member(
        "Gone Sales", "gone@rcx.example", "sales", disabled_at=datetime(2026, 1, 1, tzinfo=UTC)
    )
    quote_id = add_quote(owner_id=gone.member_id)
    seen = Seen(status="new", lost_reason="", owner_id=gone.member_id)

    said = save_work(work("contacted", gone), actor=sales, quote_id=quote_id, seen=seen)

    assert said == "Status changed to Contacted."
    assert stored(quote_id).owner_id == gone.member_id


def test_a_refused_owner_changes_nothing_not_even_the_status(sales: StaffActor) -> None:
    support = support_actor()
    quote_id = add_quote()

    with pytest.raises(ServiceError) as refused:
        save_work(work("contacted", support), actor=sales, quote_id=quote_id, seen=NEW_UNASSIGNED)

    assert refused.value.status == 422
    assert dict(refused.value.fields) == {"owner": OWNER_INVALID}
    assert stored(quote_id).status == "new"
    assert history(quote_id) == [] and audit_entries() == []


@pytest.mark.parametrize(
    ("fields", "messages"),
    [
        ({"status": "archived", "owner": ""}, {"status": STATUS_INVALID}),
        ({"status": "lost", "reason": " ", "owner": ""}, {"reason": REASON_REQUIRED}),
        ({"status": "new", "owner": "me"}, {"owner": OWNER_INVALID}),
        (
            {"status": "x" * 40, "owner": "1" * 13},
            {"status": STATUS_INVALID, "owner": OWNER_INVALID},
        ),
        ({"status": "lost", "reason": "x" * 501}, {"reason": "Max 500 characters"}),
        ({"status": ["new"], "owner": 3}, {"status": STATUS_INVALID}),
    ],
)
def test_the_form_has_the_messages_of_the_separate_forms(
    fields: dict[str, object], messages: dict[str, str]
) -> None:
    form, errors = WorkInput.read(fields)
    assert form is None and errors == messages


def test_support_may_not_save_the_form() -> None:
    quote_id = add_quote()
    with pytest.raises(ServiceError) as refused:
        save_work(work("contacted"), actor=support_actor(), quote_id=quote_id, seen=NEW_UNASSIGNED)
    assert refused.value.status == 403
    assert stored(quote_id).status == "new"


def test_assign_to_me_in_one_click_with_history_and_audit(sales: StaffActor) -> None:
    admin = add_member("Ada Admin", "ada@rcx.example", "admin")
    quote_id = add_quote(owner_id=admin.member_id)

    assert assign_to_me(actor=sales, quote_id=quote_id) == "Assigned to you."
    assert assign_to_me(actor=sales, quote_id=quote_id) == "Nothing to change."

    assert stored(quote_id).owner_id == sales.member_id
    assert history(quote_id) == [("Sam Sales", "owner", "Ada Admin", "Sam Sales")]
    assert audit_lines() == [
        ("quote_owner_changed", f"quote #{quote_id}", "Ada Admin → Sam Sales"),
    ]


def test_assign_to_me_is_refused_to_who_may_not_own_requests() -> None:
    quote_id = add_quote()
    support = support_actor()
    with pytest.raises(ServiceError) as refused:
        assign_to_me(actor=support, quote_id=quote_id)
    assert refused.value.status == 403

    # The command line works requests but is no member who could own one.
    with pytest.raises(ServiceError) as refused:
        assign_to_me(actor=OPERATOR, quote_id=quote_id)
    assert (refused.value.status, refused.value.message) == (403, NOT_AN_OWNER)

    # A member disabled since signing in: their session's role still says sales.
    gone = add_member(
        "Gone Sales", "gone@rcx.example", "sales", disabled_at=datetime(2026, 1, 1, tzinfo=UTC)
    )
    with pytest.raises(ServiceError) as refused:
        assign_to_me(actor=gone, quote_id=quote_id)
    assert refused.value.message == NOT_AN_OWNER
    assert stored(quote_id).owner_id is None
    assert history(quote_id) == []


def test_assign_to_me_on_an_unknown_request_is_404(sales: StaffActor) -> None:
    with pytest.raises(ServiceError) as refused:
        assign_to_me(actor=sales, quote_id=999_999)
    assert refused.value.status == 404
