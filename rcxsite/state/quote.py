"""The request-a-quote form: a thin adapter over `rcxsite.leads`."""

from __future__ import annotations

import reflex as rx

from rcxsite import leads
from rcxsite.state.service_calls import FormCall, ServiceCall

QUOTE_FORM_ID = "quote-form"
FIELDS = leads.FORM_FIELDS
SUBMIT_BROKEN = "Something went wrong and your request was not sent. Please try again, or email us."


class QuoteState(rx.State):
    field_errors: dict[str, str] = dict.fromkeys(FIELDS, "")
    error: str = ""
    busy: bool = False
    confirmation: str = ""
    next_steps: str = ""

    @rx.event
    async def submit(self, form: dict[str, str]):
        fields = {name: str(value) for name, value in form.items()}
        client_ip = self.router.session.client_ip
        self.error = ""
        if leads.trap_filled(fields):
            # A bot's form is not validated: it is answered like an accepted one.
            trapped = ServiceCall()
            trapped.busy(self)
            yield
            outcome = await trapped.run(leads.note_trapped_quote, fields, client_ip=client_ip)
        else:
            call = await FormCall.read(leads.QuoteInput, fields)
            call.busy(self)
            yield
            outcome = await call.send(leads.submit_quote, client_ip=client_ip)
        self.field_errors = outcome.field_messages(FIELDS)
        if outcome.ok:
            receipt = outcome.result()
            self.confirmation, self.next_steps = receipt.message, receipt.next_steps
            yield rx.call_script("window.scrollTo(0, 0)")
            return
        self.error = outcome.message(broken=SUBMIT_BROKEN)
        first_invalid = next((name for name, text in self.field_errors.items() if text), None)
        if first_invalid:
            yield rx.set_focus(f"quote-{first_invalid}")

    @rx.event
    def start_over(self):
        self.confirmation = self.next_steps = self.error = ""
        self.field_errors = dict.fromkeys(FIELDS, "")
