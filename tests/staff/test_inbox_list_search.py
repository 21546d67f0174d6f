"""A search in the inbox list looks in every status: typing a new search sets the chip to
"All" (every status but spam) whatever chip was chosen, the chips count what the search
finds, and a chip chosen while searching narrows it. A request rescued from the spam
folder is found by name from any chip, through the service and through the page's state
as a signed-in tab drives it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rcxsite.content import routes
from rcxsite.core import tokens
from rcxsite.core.permissions import StaffActor
from rcxsite.staff import inbox
from rcxsite.staff.inbox import ALL, STATUS_FILTERS, InboxFilter, inbox_page, with_search
from rcxsite.staff.sessions import COOKIE_NAME as STAFF_COOKIE
from rcxsite.state.staff.inbox import StaffInboxState
from tests.support.quotes import add_quote
from tests.support.staff import member
from tests.support.tabs import Tab

# Each test sees only the requests it adds; `sales` is tests/staff/conftest.py's.


def _rescued(actor: StaffActor) -> int:
    """A request the bot trap put in the spam folder, rescued by a member (New again)."""
    quote_id = add_quote(name="Rita Rescued", status="spam")
    assert inbox.not_spam(actor=actor, quote_id=quote_id) == "Moved back to New."
    return quote_id


def test_a_new_search_starts_from_all_and_the_same_search_keeps_the_chip() -> None:
    chosen = InboxFilter(status="spam", owner="mine")
    assert with_search(chosen, " Rita ") == replace(chosen, status=ALL, search=" Rita ")
    narrowed = replace(with_search(chosen, "Rita"), status="contacted")
    assert with_search(narrowed, "Rita") == narrowed  # Enter again: the chip stays
    assert with_search(narrowed, "") == replace(narrowed, search="")  # cleared: the chip stays


@pytest.mark.parametrize("chip", STATUS_FILTERS)
def test_a_rescued_request_is_found_by_name_whichever_chip_was_chosen(
    sales: StaffActor, chip: str
) -> None:
    quote_id = _rescued(sales)
    add_quote(name="Somebody Else", status=chip if chip != ALL else "won")

    page = inbox_page(actor=sales, where=with_search(InboxFilter(status=chip), "rita rescued"))

    assert [row.id for row in page.rows] == [quote_id]
    assert page.counts["new"] == 1


def test_the_chips_count_the_search_and_a_chip_narrows_it(sales: StaffActor) -> None:
    add_quote(name="Rita New")
    add_quote(name="Rita Contacted", status="contacted")
    add_quote(name="Rita Spam", status="spam")
    add_quote(name="Other Won", status="won")

    where = with_search(InboxFilter(status="new"), "rita")
    found = inbox_page(actor=sales, where=where)

    assert sorted(row.name for row in found.rows) == ["Rita Contacted", "Rita New"]
    assert found.counts == {
        "new": 1,
        "contacted": 1,
        "qualified": 0,
        "won": 0,
        "lost": 0,
        "spam": 1,
        "all": 2,
    }
    spam = inbox_page(actor=sales, where=replace(where, status="spam"))
    assert [row.name for row in spam.rows] == ["Rita Spam"]


def _signed_in_tab(
    role: str = "sales", query: dict[str, str] | None = None
) -> tuple[Tab, StaffActor]:
    """A tab on the inbox (at `query`) whose connection carries a live staff session's
    cookie."""
    enrolled = member(f"{role}@rcx.example", role, name=f"Pat {role.title()}")
    cookie = f"{STAFF_COOKIE}={tokens.sealed(enrolled.session_digest)}"
    return Tab().open(routes.STAFF_INBOX.path, cookie=cookie, query=query), enrolled.actor


def _moved_to(events: list) -> str:
    """Where a handler's `rx.redirect` sends the tab."""
    [move] = events
    return dict((str(name), value._var_value) for name, value in move.args)["path"]


def test_the_address_holds_the_filter_a_link_opens_it_and_back_undoes_it() -> None:
    tab, _ = _signed_in_tab(query={"status": "spam", "q": "Rita"})
    add_quote(name="Rita Spammer", status="spam")
    add_quote(name="Rita Newcomer")
    shown = tab.state(StaffInboxState)
    cookie = tab.root.router.headers.cookie

    tab.run_now(StaffInboxState.load)  # a link to /staff?status=spam&q=Rita
    assert (shown.status_filter, shown.search) == ("spam", "Rita")
    assert [row["name"] for row in shown.rows] == ["Rita Spammer"]

    # A chip changes the address (a new entry in the history)...
    moved = _moved_to(tab.run_now(StaffInboxState.filter_by, "status", "new"))
    assert moved == "/staff?status=new&q=Rita"
    assert [row["name"] for row in shown.rows] == ["Rita Newcomer"]
    # ...whose page load, already shown, reads nothing again.
    tab.open(routes.STAFF_INBOX.path, cookie=cookie, query={"status": "new", "q": "Rita"})
    tab.run_now(StaffInboxState.load)
    assert shown.status_filter == "new"

    # Back: the address before it, and its list.
    tab.open(routes.STAFF_INBOX.path, cookie=cookie, query={"status": "spam", "q": "Rita"})
    tab.run_now(StaffInboxState.load)
    assert [row["name"] for row in shown.rows] == ["Rita Spammer"]
    # The plain address is New, whatever was chosen before.
    tab.open(routes.STAFF_INBOX.path, cookie=cookie)
    tab.run_now(StaffInboxState.load)
    assert (shown.status_filter, shown.search) == ("new", "")


def test_a_page_load_that_comes_after_a_later_filter_change_does_not_undo_it() -> None:
    """A member who searches, then clears the search and taps a chip before the browser
    has moved to the search's address: that address's late page load keeps the chip and
    the cleared search (it once brought the search back, so the next search kept the
    chip)."""
    tab, _ = _signed_in_tab()
    add_quote(name="Rita Late", status="contacted")
    shown = tab.state(StaffInboxState)
    cookie = tab.root.router.headers.cookie
    tab.run_now(StaffInboxState.load)

    searched = _moved_to(tab.run_now(StaffInboxState.apply_filter, _search_form("Rita", "new")))
    tab.run_now(StaffInboxState.apply_filter, _search_form("", ALL))
    chip = _moved_to(tab.run_now(StaffInboxState.filter_by, "status", "contacted"))
    for address in (searched, chip):  # the browser catches up
        query = dict(pair.split("=") for pair in address.partition("?")[2].split("&"))
        tab.open(routes.STAFF_INBOX.path, cookie=cookie, query=query)
        tab.run_now(StaffInboxState.load)
        assert (shown.status_filter, shown.search) == ("contacted", "")

    tab.run_now(StaffInboxState.apply_filter, _search_form("Rita", "contacted"))
    assert (shown.status_filter, shown.search) == (ALL, "Rita")


def _search_form(search: str, status: str) -> dict[str, str]:
    """The filter form as the page submits it: the status select shows the chip."""
    return {"search": search, "status": status, "owner": "", "since": "", "until": ""}


@pytest.mark.parametrize("chip", ["spam", "new", "contacted"])
def test_the_page_finds_a_rescued_request_typed_while_another_chip_was_chosen(chip: str) -> None:
    tab, actor = _signed_in_tab()
    quote_id = _rescued(actor)
    shown = tab.state(StaffInboxState)
    tab.run_now(StaffInboxState.load)
    tab.run_now(StaffInboxState.filter_by, "status", chip)
    assert shown.status_filter == chip

    tab.run_now(StaffInboxState.apply_filter, _search_form("Rita", chip))

    assert (shown.status_filter, shown.search, shown.error) == (ALL, "Rita", "")
    assert [row["id"] for row in shown.rows] == [str(quote_id)]
    # A chip chosen while searching narrows the search; the search stays.
    tab.run_now(StaffInboxState.filter_by, "status", "contacted")
    assert (shown.search, shown.rows) == ("Rita", [])
    tab.run_now(StaffInboxState.filter_by, "status", "new")
    assert [row["id"] for row in shown.rows] == [str(quote_id)]
    # Enter again on the same search keeps the chip.
    tab.run_now(StaffInboxState.apply_filter, _search_form("Rita", "new"))
    assert shown.status_filter == "new"


def test_a_sort_and_calls_today_are_in_the_address_and_a_second_click_reverses() -> None:
    tab, _ = _signed_in_tab(query={"sort": "-owner", "today": "1"})
    shown = tab.state(StaffInboxState)
    cookie = tab.root.router.headers.cookie
    tab.run_now(StaffInboxState.load)  # a link to /staff?sort=-owner&today=1
    assert (shown.sort, shown.calls_today, shown.status_filter) == ("-owner", "1", ALL)

    assert _moved_to(tab.run_now(StaffInboxState.toggle_calls_today)) == "/staff?sort=-owner"
    assert (shown.calls_today, shown.status_filter) == ("", "new")
    tab.open(routes.STAFF_INBOX.path, cookie=cookie, query={"status": "new"})
    tab.run_now(StaffInboxState.load)
    assert _moved_to(tab.run_now(StaffInboxState.sort_by, "call")) == "/staff?sort=call"
    assert _moved_to(tab.run_now(StaffInboxState.sort_by, "call")) == "/staff?sort=-call"
    assert _moved_to(tab.run_now(StaffInboxState.toggle_calls_today)) == (
        "/staff?sort=-call&today=1"
    )
    # A forged column is refused with the filter's message; the list stays as it was.
    assert tab.run_now(StaffInboxState.sort_by, "password") == []
    assert shown.filter_errors["sort"] == "Please choose a column to sort by."
    assert shown.sort == "-call"


def test_a_double_click_sent_before_the_first_move_lands_moves_the_address_back() -> None:
    """The second click of "Calls today" still carries the old address: it must move the
    tab back, not leave it at today=1 over a list without the filter."""
    tab, _ = _signed_in_tab()
    shown = tab.state(StaffInboxState)
    cookie = tab.root.router.headers.cookie
    tab.run_now(StaffInboxState.load)

    first = _moved_to(tab.run_now(StaffInboxState.toggle_calls_today))
    second = _moved_to(tab.run_now(StaffInboxState.toggle_calls_today))
    assert (first, second) == ("/staff?today=1", "/staff")
    for query in ({"today": "1"}, {}):  # the browser catches up
        tab.open(routes.STAFF_INBOX.path, cookie=cookie, query=query)
        tab.run_now(StaffInboxState.load)
    assert (shown.calls_today, shown.status_filter) == ("", "new")
