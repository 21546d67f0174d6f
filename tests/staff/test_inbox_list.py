"""The inbox list: paging, filters, search, counts per status and the owner choices."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.staff.inbox import InboxFilter, InboxPage, MemberChoice, inbox_page
from tests.support.booking import MONDAY, NEW_YORK, at
from tests.support.call_outcomes import booked_request
from tests.support.quotes import BASE_TIME, add_numbered, add_quote
from tests.support.staff import add_member


@pytest.fixture
def sales() -> StaffActor:
    return add_member("Sam Sales", "sam@rcx.example", "sales")


def names(page: InboxPage) -> list[str]:
    return [row.name for row in page.rows]


def test_120_requests_make_3_pages_newest_first(sales: StaffActor) -> None:
    ids = add_numbered(120)
    where = InboxFilter(status="all")

    first = inbox_page(actor=sales, where=where, page=1)
    second = inbox_page(actor=sales, where=where, page=2)
    third = inbox_page(actor=sales, where=where, page=3)

    assert (first.total, first.pages, first.page) == (120, 3, 1)
    assert names(first) == [f"Client {n}" for n in range(119, 69, -1)]
    assert names(second) == [f"Client {n}" for n in range(69, 19, -1)]
    assert names(third) == [f"Client {n}" for n in range(19, -1, -1)]
    assert [row.id for row in third.rows][-1] == ids[0]
    # Past the last page: the last page; before the first: the first.
    assert inbox_page(actor=sales, where=where, page=9).page == 3
    assert names(inbox_page(actor=sales, where=where, page=0)) == names(first)


def test_equal_times_are_ordered_by_id_newest_first(sales: StaffActor) -> None:
    older = add_quote(name="First in")
    newer = add_quote(name="Second in")
    page = inbox_page(actor=sales, where=InboxFilter(status="all"))
    assert [row.id for row in page.rows] == [newer, older]


def test_a_row_carries_what_the_columns_show(sales: StaffActor) -> None:
    quote_id = add_quote(
        service="ai-machine-learning",
        budget="under-25k",
        status="qualified",
        owner_id=sales.member_id,
    )
    [row] = inbox_page(actor=sales, where=InboxFilter(status="all")).rows
    assert row.id == quote_id
    assert row.received == BASE_TIME
    assert (row.name, row.email, row.company) == (
        "Alice Smith",
        "alice@client.example",
        "ACME GmbH",
    )
    assert (row.service, row.service_label) == ("ai-machine-learning", "AI & Machine Learning")
    assert row.budget_label == "Under £25,000"
    assert (row.status, row.status_label) == ("qualified", "Qualified")
    assert (row.owner_id, row.owner_name) == (sales.member_id, "Sam Sales")
    # Nothing was booked: the time the visitor preferred (10:30 UK time), on Sam's clock.
    assert (row.call, row.call_status) == ("Tue 10 Mar 2026, 10:30 (Europe/London)", "Preferred")


@pytest.mark.parametrize("status", ["new", "contacted", "qualified", "won", "lost", "spam"])
def test_each_status_filter_shows_only_that_status(sales: StaffActor, status: str) -> None:
    for each in ("new", "contacted", "qualified", "won", "lost", "spam"):
        add_quote(name=f"{each} one", status=each)
        add_quote(name=f"{each} two", status=each)

    page = inbox_page(actor=sales, where=InboxFilter(status=status))

    assert sorted(names(page)) == [f"{status} one", f"{status} two"]
    assert {row.status for row in page.rows} == {status}


def test_all_is_every_status_but_spam_and_the_default_is_new(sales: StaffActor) -> None:
    for each in ("new", "contacted", "qualified", "won", "lost", "spam"):
        add_quote(name=each, status=each)

    everything = inbox_page(actor=sales, where=InboxFilter(status="all"))
    default = inbox_page(actor=sales, where=InboxFilter())

    assert sorted(names(everything)) == ["contacted", "lost", "new", "qualified", "won"]
    assert names(default) == ["new"]


def test_owner_filters(sales: StaffActor) -> None:
    other = add_member("Olga Other", "olga@rcx.example", "sales")
    add_quote(name="mine", owner_id=sales.member_id)
    add_quote(name="theirs", owner_id=other.member_id)
    add_quote(name="nobody's")

    def owned(owner: str) -> list[str]:
        return sorted(names(inbox_page(actor=sales, where=InboxFilter(status="all", owner=owner))))

    assert owned("mine") == ["mine"]
    assert owned("unassigned") == ["nobody's"]
    assert owned(str(other.member_id)) == ["theirs"]
    assert owned("") == ["mine", "nobody's", "theirs"]
    # "Mine" is whoever asks.
    theirs = inbox_page(actor=other, where=InboxFilter(status="all", owner="mine"))
    assert names(theirs) == ["theirs"]


def test_date_range_is_inclusive_in_utc_days(sales: StaffActor) -> None:
    for label, moment in {
        "before": datetime(2026, 3, 1, 23, 59, 59, tzinfo=UTC),
        "first day": datetime(2026, 3, 2, 0, 0, tzinfo=UTC),
        "last day": datetime(2026, 3, 4, 23, 59, 59, tzinfo=UTC),
        "after": datetime(2026, 3, 5, 0, 0, tzinfo=UTC),
    }.items():
        add_quote(name=label, created_at=moment)

    def between(since: date | None, until: date | None) -> list[str]:
        where = InboxFilter(status="all", since=since, until=until)
        return names(inbox_page(actor=sales, where=where))

    assert between(date(2026, 3, 2), date(2026, 3, 4)) == ["last day", "first day"]
    assert between(date(2026, 3, 2), None) == ["after", "last day", "first day"]
    assert between(None, date(2026, 3, 1)) == ["before"]
    assert between(date(2026, 3, 5), date(2026, 3, 4)) == []


@pytest.mark.parametrize(
    ("field", "value", "search"),
    [
        ("name", "Zoë Quartermain", "quarterMAIN"),
        ("email", "buyer@Quartermain.example", "QUARTERMAIN.EX"),
        ("company", "Quartermain Holdings", "holdings"),
        ("message", "Our warehouse in Quartermain needs a stock system.", "warehouse IN"),
    ],
)
def test_search_finds_text_in_each_field_ignoring_case(
    sales: StaffActor, field: str, value: str, search: str
) -> None:
    wanted = add_quote(**{field: value})
    add_quote(
        name="Unrelated",
        email="x@y.example",
        company="Other Ltd",
        message="Nothing to see here, just a shop.",
    )

    page = inbox_page(actor=sales, where=InboxFilter(status="all", search=f"  {search} "))

    assert [row.id for row in page.rows] == [wanted]
    assert page.total == 1


def test_percent_and_underscore_in_a_search_are_literal(sales: StaffActor) -> None:
    add_quote(name="Discount", message="We want 50% off the whole project, please.")
    add_quote(name="Fifty", message="We want 50 people on the project, please.")
    add_quote(name="Snake", message="Our table is called user_accounts and is slow.")
    add_quote(name="Spaces", message="Our table is called user accounts, no snake.")
    add_quote(name="Backslash", message="Files live in C:\\data on our server.")

    def found(search: str) -> list[str]:
        return names(inbox_page(actor=sales, where=InboxFilter(status="all", search=search)))

    assert found("50%") == ["Discount"]
    assert found("%") == ["Discount"]
    assert found("user_a") == ["Snake"]
    assert found("C:\\d") == ["Backslash"]


def test_search_and_filters_combine(sales: StaffActor) -> None:
    add_quote(name="Anna Portal", status="new", owner_id=sales.member_id)
    add_quote(name="Ben Portal", status="won", owner_id=sales.member_id)
    add_quote(name="Cara Portal", status="new")
    add_quote(
        name="Dan Shop",
        status="new",
        owner_id=sales.member_id,
        message="An online shop for our bakery, please.",
    )

    page = inbox_page(actor=sales, where=InboxFilter(status="new", owner="mine", search="portal"))

    assert names(page) == ["Anna Portal"]


def test_counts_per_status_follow_owner_date_and_search_but_not_status(sales: StaffActor) -> None:
    later = BASE_TIME + timedelta(days=3)
    add_quote(status="new", owner_id=sales.member_id)
    add_quote(status="new", owner_id=sales.member_id)
    add_quote(status="lost", owner_id=sales.member_id)
    add_quote(status="spam", owner_id=sales.member_id)
    add_quote(status="won")  # someone else's: not counted under "mine"
    add_quote(status="new", owner_id=sales.member_id, created_at=later)  # outside the dates

    page = inbox_page(
        actor=sales,
        where=InboxFilter(
            status="lost", owner="mine", since=BASE_TIME.date(), until=BASE_TIME.date()
        ),
    )

    assert page.counts == {
        "new": 2,
        "contacted": 0,
        "qualified": 0,
        "won": 0,
        "lost": 1,
        "spam": 1,
        "all": 3,
    }
    assert page.total == 1
    unfiltered = inbox_page(actor=sales, where=InboxFilter())
    assert unfiltered.counts == {
        "new": 3,
        "contacted": 0,
        "qualified": 0,
        "won": 1,
        "lost": 1,
        "spam": 1,
        "all": 5,
    }


def test_owner_choices_are_enabled_admin_and_sales_members_by_name(sales: StaffActor) -> None:
    admin = add_member("Ada Admin", "ada@rcx.example", "admin")
    add_member("Sue Support", "sue@rcx.example", "support")
    add_member(
        "Gone Sales", "gone@rcx.example", "sales", disabled_at=datetime(2026, 1, 1, tzinfo=UTC)
    )

    page = inbox_page(actor=sales, where=InboxFilter())

    assert page.members == [
        MemberChoice(id=admin.member_id, name="Ada Admin"),
        MemberChoice(id=sales.member_id, name="Sam Sales"),
    ]


@pytest.mark.parametrize(
    ("where", "field", "message"),
    [
        (InboxFilter(status="archived"), "status", "Please choose a status from the list."),
        (InboxFilter(owner="someone"), "owner", "Please choose an owner from the list."),
        (
            InboxFilter(owner="99999999999999999999"),
            "owner",
            "Please choose an owner from the list.",
        ),
        (InboxFilter(search="x" * 201), "search", "Max 200 characters"),
        (InboxFilter(search="a\x00b"), "search", "Contains characters that are not allowed"),
    ],
)
def test_a_bad_filter_is_refused_by_field(
    sales: StaffActor, where: InboxFilter, field: str, message: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        inbox_page(actor=sales, where=where)
    assert refused.value.status == 422
    assert dict(refused.value.fields) == {field: message}


def test_a_200_character_search_is_fine(sales: StaffActor) -> None:
    add_quote(message="y" * 300)
    assert inbox_page(actor=sales, where=InboxFilter(search="y" * 200)).total == 1


def test_each_row_shows_its_call_on_the_members_clock_and_any_status_but_booked() -> None:
    member = add_member("Nia NewYork", "nia@rcx.example", "sales", time_zone=NEW_YORK)
    booked = booked_request(member.member_id, at(MONDAY, "10:00"))
    cancelled = booked_request(member.member_id, at(MONDAY, "11:00"), status="cancelled")
    held = booked_request(member.member_id, at(MONDAY, "12:00"), status="held")
    # US summer time has begun on 10 March 2026, UK summer time not: 4 hours apart.
    preferred = add_quote(call_date=date(2026, 3, 10), call_time="10:30")
    no_time = add_quote(call_date=date(2026, 3, 10), call_time="")

    rows = {row.id: row for row in inbox_page(actor=member, where=InboxFilter(status="all")).rows}

    assert {quote_id: (rows[quote_id].call, rows[quote_id].call_status) for quote_id in rows} == {
        booked: ("Mon 1 Mar 2027, 05:00 (America/New_York)", ""),
        cancelled: ("Mon 1 Mar 2027, 06:00 (America/New_York)", "Cancelled"),
        held: ("Mon 1 Mar 2027, 07:00 (America/New_York)", "Held"),
        preferred: ("Tue 10 Mar 2026, 06:30 (America/New_York)", "Preferred"),
        no_time: ("", ""),
    }


def test_a_member_without_a_zone_sees_calls_in_the_companys() -> None:
    member = add_member("Sam Sales", "sam@rcx.example", "sales")
    booked = booked_request(member.member_id, at(MONDAY, "10:00"))
    [row] = inbox_page(actor=member, where=InboxFilter(status="all")).rows
    assert (row.id, row.call, row.call_status) == (
        booked,
        "Mon 1 Mar 2027, 10:00 (Europe/London)",
        "",
    )
