"""One quote request on the staff page: its fields, the call in two zones, the customer."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from rcxsite.core.service_errors import ServiceError
from rcxsite.staff.inbox import quote_detail
from tests.support.booking import MONDAY, NEW_YORK, NOW, at
from tests.support.call_outcomes import booked_request
from tests.support.customers import add_customer
from tests.support.quotes import BASE_TIME, add_quote
from tests.support.staff import add_member


def test_every_field_of_the_request() -> None:
    owner = add_member("Olga Owner", "olga@rcx.example", "sales")
    reader = add_member("Sue Support", "sue@rcx.example", "support")
    mailed = datetime(2026, 3, 2, 9, 0, 7, tzinfo=UTC)
    quote_id = add_quote(
        name="Alice Smith",
        email="Alice@client.example",
        company="ACME GmbH",
        phone="+49 30 1234567",
        service="ai-machine-learning",
        budget="under-25k",
        timeline="asap",
        message="Line one.\nLine two.",
        call_date=date(2026, 3, 10),
        call_time="10:30",
        mailed_at=mailed,
        status="lost",
        lost_reason="Went elsewhere",
        owner_id=owner.member_id,
    )

    detail = quote_detail(actor=reader, quote_id=quote_id)

    assert detail.id == quote_id
    assert (detail.received, detail.mailed_at) == (BASE_TIME, mailed)
    assert (detail.name, detail.email, detail.company, detail.phone) == (
        "Alice Smith",
        "Alice@client.example",
        "ACME GmbH",
        "+49 30 1234567",
    )
    assert (detail.service, detail.service_label) == (
        "ai-machine-learning",
        "AI & Machine Learning",
    )
    assert (detail.budget, detail.budget_label) == ("under-25k", "Under £25,000")
    assert (detail.timeline, detail.timeline_label) == ("asap", "As soon as possible")
    assert detail.message == "Line one.\nLine two."
    assert (detail.call_date, detail.call_time) == (date(2026, 3, 10), "10:30")
    assert (detail.status, detail.status_label, detail.lost_reason) == (
        "lost",
        "Lost",
        "Went elsewhere",
    )
    assert (detail.owner_id, detail.owner_name) == (owner.member_id, "Olga Owner")
    assert detail.customer_id is None
    assert detail.notes == [] and detail.history == []
    assert detail.call is None


@pytest.mark.parametrize(
    ("zone", "member_text", "shown_zone"),
    [
        # 10:30 in London on 10 March 2026 (GMT) is 11:30 in Berlin (CET).
        ("Europe/Berlin", "Tuesday, 10 March 2026 at 11:30 (Europe/Berlin)", "Europe/Berlin"),
        # US daylight time starts on 8 March 2026, London's only on 29 March: 4 hours.
        (
            "America/New_York",
            "Tuesday, 10 March 2026 at 06:30 (America/New_York)",
            "America/New_York",
        ),
        ("Asia/Kolkata", "Tuesday, 10 March 2026 at 16:00 (Asia/Kolkata)", "Asia/Kolkata"),
        # UTC+14: past midnight, so another day.
        (
            "Pacific/Kiritimati",
            "Wednesday, 11 March 2026 at 00:30 (Pacific/Kiritimati)",
            "Pacific/Kiritimati",
        ),
        ("", "Tuesday, 10 March 2026 at 10:30 UK time", "Europe/London"),
        ("Mars/Olympus_Mons", "Tuesday, 10 March 2026 at 10:30 UK time", "Europe/London"),
        ("Europe/London", "Tuesday, 10 March 2026 at 10:30 UK time", "Europe/London"),
    ],
)
def test_the_call_slot_in_the_company_zone_and_the_members_own(
    zone: str, member_text: str, shown_zone: str
) -> None:
    member = add_member("Sam Sales", "sam@rcx.example", "sales", time_zone=zone)
    quote_id = add_quote(call_date=date(2026, 3, 10), call_time="10:30")

    detail = quote_detail(actor=member, quote_id=quote_id)

    assert detail.call_company == "Tuesday, 10 March 2026 at 10:30 UK time"
    assert detail.call_member == member_text
    assert detail.member_time_zone == shown_zone


def test_a_summer_slot_follows_british_summer_time() -> None:
    member = add_member("Sam Sales", "sam@rcx.example", "sales", time_zone="UTC")
    quote_id = add_quote(call_date=date(2026, 7, 7), call_time="09:00")
    detail = quote_detail(actor=member, quote_id=quote_id)
    assert detail.call_company == "Tuesday, 7 July 2026 at 09:00 UK time"
    assert detail.call_member == "Tuesday, 7 July 2026 at 08:00 (UTC)"


def test_a_slot_without_a_time_says_so() -> None:
    member = add_member("Sam Sales", "sam@rcx.example", "sales", time_zone="Asia/Tokyo")
    quote_id = add_quote(call_date=date(2026, 3, 10), call_time="", status="spam")
    detail = quote_detail(actor=member, quote_id=quote_id)
    assert detail.call_company == "Tuesday, 10 March 2026 (no time given)"
    assert detail.call_member == detail.call_company


def test_the_customer_with_the_same_email_is_linked_whatever_the_case() -> None:
    member = add_member("Sam Sales", "sam@rcx.example", "sales")
    customer_id = add_customer("alice@client.example", verified=True)
    linked = add_quote(email="Alice@Client.example")
    other = add_quote(email="bob@client.example")

    assert quote_detail(actor=member, quote_id=linked).customer_id == customer_id
    assert quote_detail(actor=member, quote_id=other).customer_id is None


def test_a_booked_call_on_the_members_clock_with_the_visitors_host_and_status() -> None:
    host = add_member("Sam Sales", "sam@rcx.example", "sales")
    reader = add_member("Kai Kolkata", "kai@rcx.example", "support", time_zone="Asia/Kolkata")
    start = at(MONDAY, "10:00")
    quote_id = booked_request(host.member_id, start, status="moved", time_zone=NEW_YORK)

    call = quote_detail(actor=reader, quote_id=quote_id, now=NOW).call

    assert call is not None
    assert call.when == "Monday 1 March 2027 at 15:30–16:00 (Asia/Kolkata)"
    assert call.visitor_time == "Mon 1 Mar 2027, 05:00 (America/New_York)"
    assert call.visitor_time_zone == NEW_YORK
    assert (call.host_id, call.host_name) == (host.member_id, "Sam Sales")
    assert (call.status, call.status_label) == ("moved", "Moved")
    # Held and No-show apply from the start on.
    assert call.can_mark is False
    later = quote_detail(actor=reader, quote_id=quote_id, now=start).call
    assert later is not None and later.can_mark is True


@pytest.mark.parametrize(
    ("status", "label", "can_mark"),
    [("cancelled", "Cancelled", False), ("held", "Held", True), ("no-show", "No-show", True)],
)
def test_a_past_call_may_be_marked_unless_it_was_cancelled(
    status: str, label: str, can_mark: bool
) -> None:
    host = add_member("Sam Sales", "sam@rcx.example", "sales")
    quote_id = booked_request(host.member_id, NOW - timedelta(hours=1), status=status)
    call = quote_detail(actor=host, quote_id=quote_id, now=NOW).call
    assert call is not None
    assert (call.status_label, call.can_mark) == (label, can_mark)
    assert call.when == "Sunday 28 February 2027 at 11:00–11:30 (Europe/London)"


def test_an_unknown_request_is_404() -> None:
    member = add_member("Sam Sales", "sam@rcx.example", "sales")
    with pytest.raises(ServiceError) as missing:
        quote_detail(actor=member, quote_id=424242)
    assert (missing.value.status, missing.value.message) == (
        404,
        "This quote request does not exist.",
    )
