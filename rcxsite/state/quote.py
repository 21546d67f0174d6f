"""The request-a-quote (book a call) form: a thin adapter over `rcxsite.booking` and
`rcxsite.leads`.

A call is the form's recommended follow-up; a visitor who chooses a reply by email instead
(`call_kind`) sends the request without one (`leads.submit_quote` with
`QuoteWithoutCallInput`), and no time is asked for.

With members taking calls, the visitor picks a free time (`SlotPicker`) and the request
books it (`booking.book`); with none (a fresh install), the form asks for a preferred
date and time and the request goes to sales as before (`leads.submit_quote`), who propose
a time by mail. Which of the two a request is follows from the form it came from (a
preferred date, or not), not from what this tab last loaded: a tab that sends the form
before its free times arrived is answered for the form it sent.
"""

from __future__ import annotations

from http import HTTPStatus

import reflex as rx

from rcxsite import accounts, booking, leads
from rcxsite.models.booking import PHONE
from rcxsite.state.analytics.page_views import PageViewState
from rcxsite.state.booking.call_calendar import CallCalendar
from rcxsite.state.booking.slot_picker import SlotPicker
from rcxsite.state.one_time import show_once
from rcxsite.state.service_calls import FormCall, Outcome, ServiceCall, call_service
from rcxsite.state.session import SessionState

QUOTE_FORM_ID = "quote-form"
# The booked call's manage link, shown once on the thank-you view ("Change or cancel").
MANAGE_LINK_SLOT = "quote-manage-link"
BOOKING_FIELDS = ("start", "time_zone")
FIELDS = (*leads.FORM_FIELDS, *BOOKING_FIELDS)
SUBMIT_BROKEN = "Something went wrong and your request was not sent. Please try again, or email us."


class QuoteState(SlotPicker, CallCalendar, rx.State):
    field_errors: dict[str, str] = dict.fromkeys(FIELDS, "")
    error: str = ""
    busy: bool = False
    confirmation: str = ""
    next_steps: str = ""
    # What the form shows; the request itself follows the `call_kind` the form sent.
    without_call: bool = False
    # A booked video call's link, and the call for the visitor's calendar (no secret in
    # any of them: the manage link comes once, MANAGE_LINK_SLOT), on the thank-you view.
    meeting_url: str = ""

    # A phone call chosen: the phone number is then required.
    by_phone: bool = False

    @rx.event
    def choose_follow_up(self, choice: str) -> None:
        self.without_call = choice == leads.WITHOUT_CALL
        self.by_phone = choice == PHONE

    @rx.event
    def open_form(self) -> None:
        """on_load: the form's choice starts as its radios do, a video call."""
        self.without_call = self.by_phone = False

    @rx.event
    async def submit(self, form: dict[str, str]):
        fields = {name: str(value) for name, value in form.items()}
        client_ip = self.router.session.client_ip
        attribution = (await self.get_state(PageViewState))._attribution()
        self.error = ""
        outcome: Outcome[leads.QuoteReceipt | booking.BookingReceipt]
        if leads.trap_filled(fields):
            # A bot's form is not validated: it is answered like an accepted one.
            trapped = ServiceCall()
            trapped.busy(self)
            yield
            outcome = await trapped.run(leads.note_trapped_quote, fields, client_ip=client_ip)
        elif leads.wants_no_call(fields):
            written = await FormCall.read(leads.QuoteWithoutCallInput, fields)
            written.busy(self)
            yield
            outcome = await written.send(
                leads.submit_quote, client_ip=client_ip, attribution=attribution
            )
        elif "call_date" not in fields:
            fields["time_zone"] = self.time_zone
            booked = await FormCall.read(booking.BookingInput, fields)
            booked.busy(self)
            yield
            outcome = await booked.send(booking.book, client_ip=client_ip, attribution=attribution)
        else:
            requested = await FormCall.read(leads.QuoteInput, fields)
            requested.busy(self)
            yield
            outcome = await requested.send(
                leads.submit_quote, client_ip=client_ip, attribution=attribution
            )
        self.field_errors = outcome.field_messages(FIELDS)
        if outcome.ok:
            receipt = outcome.result()
            steps = receipt.next_steps
            if isinstance(receipt, booking.BookingReceipt) and self.hour12:
                steps = receipt.next_steps_12
            self.confirmation, self.next_steps = receipt.message, steps
            self._show_call(receipt if isinstance(receipt, booking.BookingReceipt) else None)
            if isinstance(receipt, booking.BookingReceipt):
                yield show_once({MANAGE_LINK_SLOT: booking.manage_url(receipt.token)})
            yield rx.call_script("window.scrollTo(0, 0)")
            return
        self.error = outcome.message(broken=SUBMIT_BROKEN)
        if outcome.refusal is not None and outcome.refusal.status == HTTPStatus.CONFLICT:
            # Taken meanwhile: fresh times; every typed field stays as it was.
            await self._load_slots()
            yield rx.set_focus("quote-slots")
            return
        first_invalid = next((name for name, text in self.field_errors.items() if text), None)
        if first_invalid:
            yield rx.set_focus(f"quote-{first_invalid}")

    def _show_call(self, receipt: booking.BookingReceipt | None) -> None:
        self.meeting_url = receipt.meeting_url if receipt is not None else ""
        self._show_calendar(receipt.calendar if receipt is not None else None)

    @rx.event
    async def start_over(self):
        # The form comes back as it starts, a call chosen.
        self.without_call = self.by_phone = False
        self.confirmation = self.next_steps = self.error = ""
        self._show_call(None)
        self.field_errors = dict.fromkeys(FIELDS, "")
        await self._load_slots()


class QuotePrefillState(SessionState):
    """What the form's name, email, company and phone start with: a signed-in customer's
    own details, so that asking again needs no retyping; empty for everyone else. Only
    where the fields start: the visitor may change any of them, and the request is
    checked as any other."""

    name: str = ""
    email: str = ""
    company: str = ""
    phone: str = ""
    # Bumped when the details change, to remount the four fields with them (an
    # uncontrolled field takes its starting value once).
    version: int = 0

    def _show(self, details: accounts.QuoteFormDetails | None) -> None:
        values = ("", "", "", "")
        if details is not None:
            values = (details.name, details.email, details.company, details.phone)
        if values != (self.name, self.email, self.company, self.phone):
            self.name, self.email, self.company, self.phone = values
            self.version += 1

    def _forget_personal_data(self) -> None:
        self._show(None)

    @rx.event
    async def load(self):
        """on_load of /request-a-quote."""
        customer_id = await self._signed_in_customer()
        self.signed_in = customer_id is not None
        if customer_id is None:
            self._show(None)
            return
        if self._data_for and self._data_for != customer_id:
            # Someone else's data may still be in this tab: it goes before theirs comes.
            await self._forget_everyones_personal_data()
        # Kept on a reconnect by this customer's own cookie (rcxsite/state/stored_data.py).
        self._data_for = customer_id
        outcome = await call_service(accounts.quote_form_details, customer_id=customer_id)
        # Without them the form starts empty, as for anyone.
        self._show(outcome.value if outcome.ok else None)
