"""Changing several requests from the inbox list at once: each request changed as its own
page would change it (a history line and an audit entry per request and change), the
permission checked on the server (support is refused), a partial refusal said plainly,
and the selection's input bounded; then the page's state as a signed-in tab drives it."""

from __future__ import annotations

from typing import Any

import pytest

from rcxsite.content import routes
from rcxsite.core import tokens
from rcxsite.core.audit import DENIED
from rcxsite.core.permissions import NO_ACCESS, StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.staff.inbox_bulk import (
    CHOOSE_CHANGE,
    SELECT_REQUESTS,
    SELECTION_MAX,
    TOO_MANY,
    SelectionInput,
    change_selection,
)
from rcxsite.staff.inbox_inputs import OWNER_INVALID, REASON_REQUIRED
from rcxsite.staff.sessions import COOKIE_NAME as STAFF_COOKIE
from rcxsite.state.staff.access import StaffState
from rcxsite.state.staff.inbox import StaffInboxState
from tests.support.quotes import add_quote, changes, stored
from tests.support.staff import audit_entries, member, support_actor
from tests.support.tabs import Tab

# Each test sees only the requests it adds; `sales` is tests/staff/conftest.py's.


def _selection(**raw: Any) -> SelectionInput:
    return SelectionInput.parse(raw)


def _quote_entries() -> list[tuple[str, str, str, str]]:
    return [
        (entry.action, entry.target, entry.actor_name, entry.detail)
        for entry in audit_entries()
        if entry.action.startswith("quote_")
    ]


def test_each_request_gets_its_history_and_audit_rows_as_if_changed_one_by_one(
    sales: StaffActor,
) -> None:
    ids = [add_quote(name=f"Lead {n}") for n in range(3)]

    result = change_selection(
        _selection(
            ids=[str(quote_id) for quote_id in ids], owner=str(sales.member_id), status="contacted"
        ),
        actor=sales,
    )

    assert result.message == "3 requests assigned to Sam Sales and set to Contacted."
    assert (result.changed, result.unchanged, result.refused) == (tuple(ids), (), ())
    for quote_id in ids:
        quote = stored(quote_id)
        assert (quote.owner_id, quote.status) == (sales.member_id, "contacted")
        assert [
            (change.field, change.old_value, change.new_value, change.actor_name)
            for change in changes(quote_id)
        ] == [
            ("owner", "Unassigned", "Sam Sales", "Sam Sales"),
            ("status", "New", "Contacted", "Sam Sales"),
        ]
    assert _quote_entries() == [
        entry
        for quote_id in ids
        for entry in (
            ("quote_owner_changed", f"quote #{quote_id}", "Sam Sales", "Unassigned → Sam Sales"),
            ("quote_status_changed", f"quote #{quote_id}", "Sam Sales", "New → Contacted"),
        )
    ]


def test_a_partial_refusal_says_how_many_changed_and_which_could_not_be(
    sales: StaffActor,
) -> None:
    ids = [add_quote(name=f"Lead {n}") for n in range(3)]
    already = add_quote(name="Already Sams", owner_id=sales.member_id)
    gone = max(ids) + 1000

    result = change_selection(
        _selection(ids=[*ids, already, gone], owner=str(sales.member_id)), actor=sales
    )

    assert result.message == (
        "3 requests assigned to Sam Sales; 1 needed no change; "
        f"1 could not be changed: #{gone} (this quote request does not exist)."
    )
    assert (result.changed, result.unchanged) == (tuple(ids), (already,))
    assert [(r.quote_id, r.name) for r in result.refused] == [(gone, "")]
    assert [change.field for change in changes(already)] == []


def test_a_lost_status_needs_its_reason_as_on_the_request_page(sales: StaffActor) -> None:
    quote_id = add_quote(name="Lost Lara")
    with pytest.raises(ServiceError) as refused:
        _selection(ids=[quote_id], status="lost", reason="  ")
    assert dict(refused.value.fields) == {"reason": REASON_REQUIRED}

    result = change_selection(
        _selection(ids=[quote_id], status="lost", reason="Went with an agency"), actor=sales
    )

    assert result.message == "1 request set to Lost."
    assert stored(quote_id).lost_reason == "Went with an agency"
    assert [change.new_value for change in changes(quote_id)] == ["Lost: Went with an agency"]


def test_unassigning_says_so(sales: StaffActor) -> None:
    quote_id = add_quote(owner_id=sales.member_id)
    result = change_selection(_selection(ids=[quote_id], owner="unassigned"), actor=sales)
    assert result.message == "1 request unassigned."
    assert stored(quote_id).owner_id is None


def test_support_is_refused_and_nothing_is_written() -> None:
    support = support_actor()
    ids = [add_quote(name=f"Lead {n}") for n in range(2)]

    with pytest.raises(ServiceError) as refused:
        change_selection(_selection(ids=ids, status="contacted"), actor=support)

    assert (refused.value.status, refused.value.message) == (403, NO_ACCESS)
    assert [stored(quote_id).status for quote_id in ids] == ["new", "new"]
    assert [changes(quote_id) for quote_id in ids] == [[], []]
    assert _quote_entries() == []


def test_an_owner_who_may_not_own_requests_is_refused_before_anything_changes(
    sales: StaffActor,
) -> None:
    support = support_actor()
    ids = [add_quote(name=f"Lead {n}") for n in range(2)]

    with pytest.raises(ServiceError) as refused:
        change_selection(
            _selection(ids=ids, owner=str(support.member_id), status="contacted"), actor=sales
        )

    assert (refused.value.status, dict(refused.value.fields)) == (422, {"owner": OWNER_INVALID})
    assert [stored(quote_id).status for quote_id in ids] == ["new", "new"]
    assert _quote_entries() == []


@pytest.mark.parametrize(
    ("raw", "field", "message"),
    [
        ({"ids": [], "status": "won"}, "ids", SELECT_REQUESTS),
        ({"status": "won"}, "ids", SELECT_REQUESTS),
        ({"ids": "1,2", "status": "won"}, "ids", SELECT_REQUESTS),
        ({"ids": ["1", "x"], "status": "won"}, "ids", SELECT_REQUESTS),
        ({"ids": [True], "status": "won"}, "ids", SELECT_REQUESTS),
        ({"ids": ["9" * 13], "status": "won"}, "ids", SELECT_REQUESTS),
        ({"ids": [str(n) for n in range(1, SELECTION_MAX + 2)], "status": "won"}, "ids", TOO_MANY),
        ({"ids": ["1"]}, "request", CHOOSE_CHANGE),
        ({"ids": ["1"], "status": "archived"}, "status", "Please choose a status."),
        ({"ids": ["1"], "owner": "someone"}, "owner", OWNER_INVALID),
        ({"ids": ["1"], "owner": "1" * 13}, "owner", OWNER_INVALID),
        ({"ids": ["1"], "status": "lost", "reason": "x" * 501}, "reason", "Max 500 characters"),
    ],
)
def test_the_selection_is_bounded_and_checked(
    raw: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        SelectionInput.parse(raw)
    assert refused.value.status == 422
    assert dict(refused.value.fields) == {field: message}


def test_a_hundred_requests_at_once(sales: StaffActor) -> None:
    ids = [add_quote(name=f"Lead {n}") for n in range(SELECTION_MAX)]
    result = change_selection(_selection(ids=ids, status="qualified"), actor=sales)
    assert result.message == "100 requests set to Qualified."


def test_a_request_ticked_twice_counts_once() -> None:
    assert _selection(ids=["7", 7, "3"], status="won").ids == (7, 3)


def _tab(role: str) -> tuple[Tab, StaffActor]:
    """A tab on the inbox whose connection carries a live staff session's cookie."""
    enrolled = member(f"{role}@rcx.example", role, name=f"Pat {role.title()}")
    cookie = f"{STAFF_COOKIE}={tokens.sealed(enrolled.session_digest)}"
    return Tab().open(routes.STAFF_INBOX.path, cookie=cookie), enrolled.actor


def _run(tab: Tab, handler: Any, *args: Any) -> None:
    tab.run_now(handler, *args)


def test_the_page_ticks_rows_it_shows_and_assigns_them_to_the_member() -> None:
    tab, me = _tab("sales")
    first, second = add_quote(name="Ann Ticked"), add_quote(name="Bo Ticked")
    add_quote(name="Cy Won", status="won")  # not on the New list
    page = tab.state(StaffInboxState)
    _run(tab, StaffInboxState.load)
    assert [row["select_label"] for row in page.rows] == ["Select Bo Ticked", "Select Ann Ticked"]

    _run(tab, StaffInboxState.toggle_row, str(first))
    _run(tab, StaffInboxState.toggle_row, "99999")  # not shown: ignored
    _run(tab, StaffInboxState.toggle_row, "'; DROP TABLE")
    assert page.selected == [str(first)]
    _run(tab, StaffInboxState.toggle_page)
    assert page.selected == [str(second), str(first)]
    _run(tab, StaffInboxState.toggle_page)
    assert page.selected == []
    _run(tab, StaffInboxState.toggle_page)

    _run(tab, StaffInboxState.assign_selection_to_me)

    assert page.notice == "2 requests assigned to Pat Sales."
    assert (page.selected, page.selection_error) == ([], "")
    assert [row["owner"] for row in page.rows] == ["Pat Sales", "Pat Sales"]
    assert [stored(quote_id).owner_id for quote_id in (first, second)] == [me.member_id] * 2


def test_the_pages_form_shows_why_a_selection_is_refused() -> None:
    tab, _ = _tab("admin")
    quote_id = add_quote(name="Lost Lou")
    page = tab.state(StaffInboxState)
    _run(tab, StaffInboxState.load)
    form = {"owner": "", "status": "lost", "reason": ""}

    _run(tab, StaffInboxState.change_selection, form)
    assert (page.selection_error, page.selection_errors["reason"]) == (
        SELECT_REQUESTS,
        REASON_REQUIRED,
    )

    _run(tab, StaffInboxState.toggle_row, str(quote_id))
    _run(tab, StaffInboxState.change_selection, form)
    assert (page.selection_errors["reason"], page.selection_error) == (REASON_REQUIRED, "")

    _run(tab, StaffInboxState.change_selection, {**form, "reason": "No budget"})
    assert page.notice == "1 request set to Lost."
    assert page.rows == []  # the New list no longer holds it


def test_a_support_members_tab_is_refused_the_change_and_it_is_recorded() -> None:
    tab, _ = _tab("support")
    quote_id = add_quote(name="Not For Support")
    page = tab.state(StaffInboxState)
    _run(tab, StaffInboxState.load)
    assert [row["id"] for row in page.rows] == [str(quote_id)]

    # The page offers support no checkbox or form: the events are sent as a forged
    # client would.
    _run(tab, StaffInboxState.toggle_row, str(quote_id))
    _run(tab, StaffInboxState.change_selection, {"owner": "", "status": "won", "reason": ""})

    assert tab.state(StaffState).access == "denied"
    assert page.selected == []
    assert stored(quote_id).status == "new"
    assert changes(quote_id) == []
    denied = [entry for entry in audit_entries() if entry.action == DENIED]
    assert [(entry.target, entry.detail) for entry in denied] == [
        ("StaffInboxState.toggle_row", "needs quotes.work"),
        ("StaffInboxState.change_selection", "needs quotes.work"),
    ]
