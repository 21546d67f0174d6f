"""My account's upcoming calls: those booked with the account's address, only once the
customer proved the address is theirs, each with its manage link."""

from __future__ import annotations

from datetime import timedelta

from reflex.event import EventSpec, redirect

from rcxsite import booking
from rcxsite.booking.customer_calls import upcoming_for_customer
from rcxsite.content import routes
from rcxsite.state.my_account import AccountState
from tests.support.booking import MONDAY, NEW_YORK, NOW, add_booking, add_host, at, book, cancel
from tests.support.customers import add_customer, register_customer
from tests.support.tabs import Tab, login_cookie

TUESDAY = MONDAY + timedelta(days=1)
# Reflex's redirect, as the events a handler yields name it.
REDIRECT = redirect("/").handler.fn.__qualname__


def test_a_verified_address_lists_its_calls_to_come_with_their_manage_links() -> None:
    add_host("Sam Sales")
    customer_id = add_customer("dana@client.example", verified=True)
    later = book(at(TUESDAY, "11:00"), email="Dana@Client.example", time_zone=NEW_YORK)
    sooner = book(at(TUESDAY, "10:00"), email="dana@client.example")
    cancelled = book(at(TUESDAY, "14:00"), email="dana@client.example")
    cancel(cancelled.token)
    host = add_host("Pat Past")
    add_booking(host, NOW - timedelta(days=1), email="dana@client.example")
    book(at(TUESDAY, "15:00"), email="someone.else@client.example")

    calls = upcoming_for_customer(customer_id=customer_id, now=NOW)

    assert [(call.start, call.time_zone, call.host_name) for call in calls] == [
        (sooner.start, "Europe/London", "Sam Sales"),
        (later.start, NEW_YORK, "Sam Sales"),
    ]
    assert [call.manage_url for call in calls] == [
        booking.manage_url(sooner.token),
        booking.manage_url(later.token),
    ]
    assert calls[0].manage_url.startswith("https://rcx.test/booking/")
    # Where each happens, as My account's "Where" column shows it.
    assert [(call.place, call.meeting_url) for call in calls] == [
        (f"Video call: {sooner.meeting_url}", sooner.meeting_url),
        (f"Video call: {later.meeting_url}", later.meeting_url),
    ]


def test_an_unverified_address_lists_none() -> None:
    add_host("Sam Sales")
    customer_id = add_customer("dana@client.example", verified=False)
    book(at(TUESDAY, "10:00"), email="dana@client.example")

    assert upcoming_for_customer(customer_id=customer_id, now=NOW) == ()
    assert upcoming_for_customer(customer_id=customer_id + 1, now=NOW) == ()


def _manage_call_as(email: str, booking_id: int) -> list[str]:
    """Where My account's "Manage" sends a tab signed in as `email` that asks for the
    call `booking_id` (any id: a client can send any event with any argument)."""
    tab = Tab().open(routes.ACCOUNT.path, cookie=login_cookie(email))
    events = tab.run_now(AccountState.manage_call, str(booking_id))
    return [
        event.args[0][1]._var_value
        for event in events
        if isinstance(event, EventSpec) and event.handler.fn.__qualname__ == REDIRECT
    ]


def test_my_accounts_manage_button_opens_only_the_customers_own_call() -> None:
    add_host("Sam Sales")
    register_customer("dana@client.example", verified=True)
    register_customer("eve@client.example", verified=True)
    danas = book(at(TUESDAY, "10:00"), email="dana@client.example")

    assert _manage_call_as("dana@client.example", danas.booking_id) == [
        booking.manage_url(danas.token)
    ]
    assert _manage_call_as("eve@client.example", danas.booking_id) == []
