"""The request-a-quote form: a thin adapter over `rcxsite.leads`."""

from __future__ import annotations

import asyncio
import logging

import reflex as rx

from rcxsite import leads

logger = logging.getLogger(__name__)

QUOTE_FORM_ID = "quote-form"
FIELDS = leads.FORM_FIELDS
SUBMIT_BROKEN = (
    "Something went wrong and your request was not sent. Please try again, or email us."
)


class QuoteState(rx.State):
    field_errors: dict[str, str] = dict.fromkeys(FIELDS, "")
    error: str = ""
    sending: bool = False
    confirmation: str = ""
    next_steps: str = ""

    @rx.event
    async def submit(self, form: dict[str, str]):
        fields = {name: str(value) for name, value in form.items()}
        self.error = ""
        self.sending = True
        yield
        try:
            result = await asyncio.to_thread(
                leads.submit_quote, fields=fields, client_ip=self.router.session.client_ip,
            )
        except Exception:
            logger.exception("quote request failed unexpectedly")
            self.error = SUBMIT_BROKEN
            return
        finally:
            self.sending = False
        self.field_errors = {name: result.errors.get(name, "") for name in FIELDS}
        if result.ok:
            self.confirmation, self.next_steps = result.message, result.next_steps
            yield rx.call_script("window.scrollTo(0, 0)")
            return
        self.error = result.message
        first_invalid = next((name for name in FIELDS if result.errors.get(name)), None)
        if first_invalid:
            yield rx.set_focus(f"quote-{first_invalid}")

    @rx.event
    def start_over(self):
        self.confirmation = self.next_steps = self.error = ""
        self.field_errors = dict.fromkeys(FIELDS, "")
