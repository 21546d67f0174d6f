"""How often a booked call may change through its manage link: a few moves an hour per
call (BOOKING_CHANGE_LIMIT), a cap on its moves in all (BOOKING_CHANGES_MAX, counted from
the stored call) and changes per client address (BOOKING_CHANGE_CLIENT_LIMIT), on the
service and on the manage page. A refused change stores, mails and hands over nothing."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from rcxsite import booking
from rcxsite.content import routes
from rcxsite.core import tokens
from rcxsite.core.service_errors import ServiceError
from rcxsite.state.booking.manage import ManageBookingState
from tests.support.booking import (
    MONDAY,
    add_day,
    add_host,
    at,
    book,
    booking_fields,
    cancel,
    history,
    iso,
    reschedule,
    stored_booking,
    stored_request,
)
from tests.support.fixtures import Configure
from tests.support.site import jobs_of_kind, outbox_messages
from tests.support.tabs import Tab

TUESDAY = MONDAY + timedelta(days=1)
WEDNESDAY = MONDAY + timedelta(days=2)
IN_AN_HOUR = "Too many requests. Try again in 60 minutes."
MOVES_USED_UP = (
    "This call has been moved as often as it can be. To move it again, please reply to "
    "your invitation. You can still cancel it."
)


def refused(function, *args, **kwargs) -> ServiceError:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError) as error:
        function(*args, **kwargs)
    return error.value


def left_behind(receipt: booking.BookingReceipt) -> tuple[object, ...]:
    """All a change leaves: the call as stored, its request's owner and history, the mails
    sent and the reminders planned."""
    row = stored_booking(receipt.booking_id)
    return (
        (row.starts_at, row.host_id, row.status, row.active, row.sequence),
        stored_request(receipt.quote_request_id).owner_id,
        history(receipt.quote_request_id),
        len(outbox_messages()),
        [(job.state, job.due_at) for job in jobs_of_kind("booking-reminder")],
    )


def test_a_call_moves_a_few_times_an_hour_then_is_refused_with_retry_after(
    configure: Configure,
) -> None:
    configure(booking_change_limit="2 per hour")
    add_host("Sam Sales")
    mine = book(at(TUESDAY, "09:00"))
    reschedule(mine.token, at(TUESDAY, "10:00"))
    reschedule(mine.token, at(TUESDAY, "11:00"))
    before = left_behind(mine)

    error = refused(reschedule, mine.token, at(TUESDAY, "13:00"))

    assert (error.status, error.message) == (429, IN_AN_HOUR)
    assert error.retry_after is not None and 3500 < error.retry_after <= 3600
    assert left_behind(mine) == before
    # The limit is the call's: another call from the same address still moves.
    other = book(at(TUESDAY, "15:00"), email="bob@client.example")
    assert reschedule(other.token, at(TUESDAY, "16:00")).start == at(TUESDAY, "16:00")


def test_a_time_taken_meanwhile_does_not_use_up_a_move(configure: Configure) -> None:
    configure(booking_change_limit="1 per hour")
    add_host("Sam Sales")
    mine = book(at(TUESDAY, "09:00"))
    book(at(TUESDAY, "14:00"), email="bob@client.example")

    assert refused(reschedule, mine.token, at(TUESDAY, "14:00")).status == 409
    assert reschedule(mine.token, at(TUESDAY, "11:00")).start == at(TUESDAY, "11:00")


def test_a_call_moves_at_most_changes_max_times_and_can_still_be_cancelled(
    configure: Configure,
) -> None:
    configure(booking_change_limit="100 per hour", booking_changes_max=2)
    sam = add_host("Sam Sales")
    add_host("Tom Sales")
    add_day(sam, WEDNESDAY)  # Sam is off: a move to Wednesday would go to Tom
    mine = book(at(TUESDAY, "09:00"))
    reschedule(mine.token, at(TUESDAY, "10:00"))
    reschedule(mine.token, at(TUESDAY, "11:00"))
    before = left_behind(mine)

    error = refused(reschedule, mine.token, at(WEDNESDAY, "10:00"))

    assert (error.status, error.message, error.retry_after) == (429, MOVES_USED_UP, None)
    assert left_behind(mine) == before
    assert stored_request(mine.quote_request_id).owner_id == sam
    assert cancel(mine.token).status == "cancelled"


def test_changes_from_one_client_address_are_limited(configure: Configure) -> None:
    configure(booking_change_client_limit="2 per hour")
    add_host("Sam Sales")
    calls = [
        book(at(TUESDAY, time), email=f"v{number}@client.example", client_ip=f"10.2.0.{number}")
        for number, time in enumerate(("09:00", "11:00", "13:00"))
    ]
    reschedule(calls[0].token, at(TUESDAY, "10:00"), client_ip="198.51.100.7")
    cancel(calls[1].token, client_ip="198.51.100.7")
    before = [left_behind(call) for call in calls]

    moved = refused(reschedule, calls[2].token, at(TUESDAY, "15:00"), client_ip="198.51.100.7")
    cancelled = refused(cancel, calls[2].token, client_ip="198.51.100.7")

    assert (moved.status, moved.message) == (429, IN_AN_HOUR)
    assert (cancelled.status, cancelled.message) == (429, IN_AN_HOUR)
    assert cancelled.retry_after is not None and cancelled.retry_after > 3500
    assert [left_behind(call) for call in calls] == before
    # Another address has its own budget.
    assert cancel(calls[2].token, client_ip="198.51.100.8").status == "cancelled"


def _booked_now() -> booking.BookingReceipt:
    """A call booked on the real clock, as the manage page works on it."""
    add_host("Sam Sales")
    starts = [
        slot.start for slot in booking.free_slots(booking.SlotQuery.parse({"days": 14})).slots
    ]
    assert len(starts) > 3, "a member on the default week has free times within 14 days"
    return booking.book(booking.BookingInput.parse(booking_fields(starts[0])), client_ip="10.3.0.1")


def _manage_tab(receipt: booking.BookingReceipt) -> Tab:
    """The tab of the mailed manage link; the path reaches the state sealed, as
    rcxsite/web/sealed_event_paths.py leaves it."""
    return Tab().open(routes.booking_path(tokens.marked(receipt.token)))


def _free_starts(receipt: booking.BookingReceipt) -> list[datetime]:
    query = booking.SlotQuery.parse({"days": 14})
    digest = tokens.token_digest(receipt.token)
    return [slot.start for slot in booking.slots_to_move_to(query, link_digest=digest).slots]


def test_the_manage_page_says_in_words_when_a_move_or_cancel_is_refused(
    configure: Configure,
) -> None:
    configure(booking_change_limit="1 per hour", booking_change_client_limit="2 per hour")
    receipt = _booked_now()
    tab = _manage_tab(receipt)
    state = tab.state(ManageBookingState)
    starts = _free_starts(receipt)

    asyncio.run(tab.run(ManageBookingState.reschedule, {"start": iso(starts[-1])}))
    assert (state.error, state.done.startswith("Your call with Sam Sales is now on")) == ("", True)
    moved_to = stored_booking(receipt.booking_id).starts_at
    before = left_behind(receipt)

    asyncio.run(tab.run(ManageBookingState.reschedule, {"start": iso(starts[-2])}))

    assert state.error == IN_AN_HOUR
    assert left_behind(receipt) == before
    assert stored_booking(receipt.booking_id).starts_at == moved_to

    # Every tab comes from one address (tests/support/tabs.py): the move above and this
    # other call's cancel are its two changes; the refused move counted for neither limit.
    other = booking.book(
        booking.BookingInput.parse(booking_fields(starts[1], email="bob@client.example")),
        client_ip="10.3.0.2",
    )
    other_tab = _manage_tab(other)
    asyncio.run(other_tab.run(ManageBookingState.cancel, {"reason": ""}))
    assert other_tab.state(ManageBookingState).done.startswith("Your call is cancelled.")
    before = left_behind(receipt)
    asyncio.run(tab.run(ManageBookingState.cancel, {"reason": ""}))

    assert state.error == IN_AN_HOUR
    assert left_behind(receipt) == before
