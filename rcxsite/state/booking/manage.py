"""/booking/<token>: the page behind the manage link of an invitation. No login: the
link is the key, sealed before Reflex sees it (rcxsite/web/sealed_event_paths.py) as a
reset link is; the service (`rcxsite.booking`) decides what the link may still do."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial

import reflex as rx

from rcxsite import booking
from rcxsite.booking.wording import spoken_time
from rcxsite.core import tokens
from rcxsite.state.booking.call_calendar import CallCalendar
from rcxsite.state.booking.slot_picker import SlotPicker
from rcxsite.state.service_calls import FormCall, call_service

LOAD_BROKEN = "Your call could not be loaded. Please try again in a moment."
CHANGE_BROKEN = "Something went wrong and your call was not changed. Please try again."
FIELDS = ("start", "reason")
DONE_ID = "booking-done"
AGAIN_LINK = "To change or cancel the new call, use the link in its invitation."


class ManageBookingState(SlotPicker, CallCalendar, rx.State):
    # "loading", "shown" (the call below) or "invalid" (`notice` says why).
    status: str = "loading"
    # When the call is, on a 24- and a 12-hour clock (the picker's `hour12` chooses).
    when: str = ""
    when12: str = ""
    host_name: str = ""
    # Where the call happens, and a video call's link to join it.
    place: str = ""
    meeting_url: str = ""
    # The call for the visitor's calendar, while it is still to come.
    call_status: str = ""
    can_change: bool = False
    # Cancelled: "Book another time" (the same details, a new call).
    can_book_again: bool = False
    # Booked again from this page: the new call is shown, its own link changes it.
    booked_again: bool = False
    notice: str = ""
    # What the visitor is doing: "" (looking), "reschedule", "cancel" or "again".
    mode: str = ""
    busy: bool = False
    error: str = ""
    done: str = ""
    field_errors: dict[str, str] = dict.fromkeys(FIELDS, "")

    def _show(self, call: booking.ManagedCall) -> None:
        self.status = "shown"
        self._when(call.start, call.time_zone)
        self.host_name, self.call_status = call.host_name, call.status
        self.place, self.meeting_url = call.place, call.meeting_url
        self._show_calendar(call.calendar)
        self.can_change, self.notice = call.can_change, call.notice
        self.can_book_again = call.can_book_again
        self._set_zone(call.time_zone)

    def _when(self, start: datetime, time_zone: str) -> None:
        self.when = spoken_time(start, time_zone)
        self.when12 = spoken_time(start, time_zone, hour12=True)

    def _digest(self) -> str | None:
        return tokens.digest_in_path(self.router.url.path)

    def _free_times(self) -> Callable[..., booking.SlotList]:
        if self.mode == "again":
            return booking.free_slots
        # Times over or next to the call itself are free for it to move to.
        return partial(booking.slots_to_move_to, link_digest=self._digest())

    @rx.event
    async def load(self):
        """on_load: what the link's call is now."""
        self.status, self.mode, self.error, self.done, self.notice = "loading", "", "", "", ""
        self.days, self.slots_loaded, self.booked_again = [], False, False
        yield
        outcome = await call_service(booking.managed_call, link_digest=self._digest())
        if outcome.ok:
            self._show(outcome.result())
            return
        self.status = "invalid"
        self.notice = outcome.message(broken=LOAD_BROKEN)

    @rx.event
    async def start_reschedule(self):
        self.mode, self.error, self.done = "reschedule", "", ""
        self.field_errors = dict.fromkeys(FIELDS, "")
        await self._load_slots()

    @rx.event
    async def start_book_again(self):
        self.mode, self.error, self.done = "again", "", ""
        self.field_errors = dict.fromkeys(FIELDS, "")
        await self._load_slots()

    @rx.event
    async def book_again(self, form: dict[str, str]):
        self.error = ""
        call = await FormCall.read(booking.RescheduleInput, {"start": str(form.get("start", ""))})
        call.busy(self)
        yield
        outcome = await call.send(
            booking.book_again,
            link_digest=self._digest(),
            client_ip=self.router.session.client_ip,
        )
        self.field_errors = outcome.field_messages(FIELDS)
        if outcome.ok:
            receipt: booking.BookingReceipt = outcome.result()
            steps = receipt.next_steps_12 if self.hour12 else receipt.next_steps
            self.mode, self.done, self.booked_again = "", steps, True
            self._when(receipt.start, receipt.time_zone)
            self.host_name, self.call_status = receipt.host_name, "booked"
            self.place, self.meeting_url = receipt.place, receipt.meeting_url
            self._show_calendar(receipt.calendar)
            self.can_change, self.can_book_again = False, False
            self.notice = AGAIN_LINK
            yield rx.set_focus(DONE_ID)
            return
        self.error = outcome.form_message(broken=CHANGE_BROKEN)
        await self._load_slots()  # taken meanwhile or not: the times as they are now

    @rx.event
    def ask_cancel(self) -> None:
        self.mode, self.error, self.done = "cancel", "", ""

    @rx.event
    def keep(self) -> None:
        self.mode, self.error = "", ""

    @rx.event
    async def reschedule(self, form: dict[str, str]):
        self.error = ""
        call = await FormCall.read(booking.RescheduleInput, {"start": str(form.get("start", ""))})
        call.busy(self)
        yield
        outcome = await call.send(
            booking.reschedule,
            link_digest=self._digest(),
            client_ip=self.router.session.client_ip,
        )
        self.field_errors = outcome.field_messages(FIELDS)
        if outcome.ok:
            moved: booking.BookingReceipt = outcome.result()
            self.mode, self.done = "", moved.next_steps_12 if self.hour12 else moved.next_steps
            await self._refresh()
            yield rx.set_focus(DONE_ID)
            return
        self.error = outcome.form_message(broken=CHANGE_BROKEN)
        await self._load_slots()  # taken meanwhile or not: the times as they are now

    @rx.event
    async def cancel(self, form: dict[str, str]):
        self.error = ""
        call = await FormCall.read(booking.CancelInput, {"reason": str(form.get("reason", ""))})
        call.busy(self)
        yield
        outcome = await call.send(
            booking.cancel, link_digest=self._digest(), client_ip=self.router.session.client_ip
        )
        self.field_errors = outcome.field_messages(FIELDS)
        if outcome.ok:
            self.mode, self.done = "", "Your call is cancelled. We have emailed you to confirm."
            self._show(outcome.result())
            yield rx.set_focus(DONE_ID)
            return
        self.error = outcome.form_message(broken=CHANGE_BROKEN)

    async def _refresh(self) -> None:
        outcome = await call_service(booking.managed_call, link_digest=self._digest())
        if outcome.ok:
            self._show(outcome.result())
