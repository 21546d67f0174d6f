"""/account: the signed-in customer's own area, a thin adapter over rcxsite.accounts.

Every handler asks the server-side session again (SessionState._signed_in_customer), so a
session ended elsewhere (sign out everywhere, a password change in another browser)
ends this page's powers too.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from rcxsite import accounts
from rcxsite.accounts.inputs import ChangePasswordInput, DeleteAccountInput, ProfileInput
from rcxsite.accounts.my_account import DETAILS_SAVED, QuoteSummary
from rcxsite.accounts.trials import after_the_trial
from rcxsite.booking import UpcomingCall
from rcxsite.booking.customer_calls import upcoming_for_customer
from rcxsite.booking.wording import long_time
from rcxsite.content import routes
from rcxsite.state.login import log_in_path
from rcxsite.state.messages import SOMETHING_WENT_WRONG
from rcxsite.state.service_calls import FormCall, Outcome, ServiceCall, call_service
from rcxsite.state.session import SessionState

DETAIL_FIELDS = ProfileInput.field_names()
PASSWORD_FIELDS = ChangePasswordInput.field_names()
DELETE_FIELDS = DeleteAccountInput.field_names()
EXPORT_FILE = "rcx-account-data.json"


def _to_login() -> EventSpec:
    return rx.redirect(log_in_path(routes.ACCOUNT.path))


def _no_errors(fields: tuple[str, ...]) -> dict[str, str]:
    return dict.fromkeys(fields, "")


def _day(moment: Any) -> str:
    return f"{moment.day} {moment:%b %Y}"


def _quote(quote: QuoteSummary) -> dict[str, str]:
    return {
        "date": _day(quote.sent_on),
        "service": quote.service,
        "status": quote.status,
        "contact": quote.contact_name,
        "contact_email": quote.contact_email,
        # An address is no URL: a "?" in it would start the mail's headers.
        "contact_href": "mailto:" + urllib.parse.quote(quote.contact_email, safe="@"),
    }


def _save_details(
    details: ProfileInput, *, customer_id: int, client_ip: str
) -> accounts.AccountOverview:
    accounts.update_details(details, customer_id=customer_id, client_ip=client_ip)
    return accounts.account_overview(customer_id=customer_id)


def _page_data(*, customer_id: int) -> tuple[accounts.AccountOverview, tuple[UpcomingCall, ...]]:
    """The overview, and the calls to come booked with the account's address once it is
    verified."""
    overview = accounts.account_overview(customer_id=customer_id)
    return overview, upcoming_for_customer(customer_id=customer_id)


def _call(call: UpcomingCall) -> dict[str, str]:
    # On the clock the visitor booked it by (their browser's zone then), as the
    # invitation and reminders say it. No manage link: a token kept in the tab's stored
    # state would outlive the page; `manage_call` asks for it when it is wanted.
    return {
        "when": long_time(call.start, call.end, call.time_zone),
        "host": call.host_name,
        # A video call's room is the customer's to join, as their invitation says.
        "where": call.place,
        "link": call.meeting_url,
        "id": str(call.booking_id),
    }


def _manage_url(*, customer_id: int, booking_id: str) -> str | None:
    """The manage link of one of the customer's own calls to come, checked again now."""
    calls = upcoming_for_customer(customer_id=customer_id)
    return next((call.manage_url for call in calls if str(call.booking_id) == booking_id), None)


class AccountState(SessionState):
    # "loading" until the session is checked, then "ready"; "closed" once the account was
    # deleted or signed out everywhere (the page then only says so).
    view: str = "loading"
    user_name: str = ""
    email: str = ""
    mobile_number: str = ""
    company_name: str = ""
    location: str = ""
    member_since: str = ""
    plan_name: str = ""
    plan_terms: str = ""
    # When the free trial ends and what happens then (rcxsite.accounts.trials), else "".
    trial_note: str = ""
    # Until the customer opened a link mailed to `email`, `quotes` stays empty. Each: date,
    # service, status, and who answers it (contact, contact_email, contact_href).
    email_verified: bool = False
    quotes: list[dict[str, str]] = []
    # The calls to come (when, host, manage link); empty until `email` is verified too.
    calls: list[dict[str, str]] = []
    # Bumped to remount the uncontrolled forms with the saved values.
    form_version: int = 0

    detail_errors: dict[str, str] = _no_errors(DETAIL_FIELDS)
    password_errors: dict[str, str] = _no_errors(PASSWORD_FIELDS)
    delete_errors: dict[str, str] = _no_errors(DELETE_FIELDS)
    details_message: str = ""
    details_failed: bool = False
    verification_message: str = ""
    verification_failed: bool = False
    password_message: str = ""
    password_failed: bool = False
    data_message: str = ""
    delete_message: str = ""
    closed_message: str = ""
    busy: str = ""

    def _show(self, overview: accounts.AccountOverview) -> None:
        shown = (self.user_name, self.mobile_number, self.company_name, self.location)
        self.user_name, self.email = overview.user_name, overview.email
        self.mobile_number, self.company_name = overview.mobile_number, overview.company_name
        self.location, self.member_since = overview.location, _day(overview.member_since)
        plan = overview.plan
        self.plan_name = plan.name if plan else ""
        terms = [plan.duration, "free trial" if plan.is_trial else ""] if plan else []
        self.plan_terms = ", ".join(term for term in terms if term)
        self.trial_note = after_the_trial(plan) if plan else ""
        self.email_verified = overview.email_verified
        self.quotes = [_quote(quote) for quote in overview.quotes]
        # The forms start again from the stored values only when those changed: a tab that
        # reconnects loads the page again, and must not wipe what the visitor is typing.
        if shown != (self.user_name, self.mobile_number, self.company_name, self.location):
            self.form_version += 1

    async def _customer(self) -> int | None:
        """The signed-in customer, asked before every action (this tab then holds their
        data); None when nobody is signed in any more (the caller sends the visitor to the
        login page)."""
        customer_id = await self._signed_in_customer()
        self.signed_in = customer_id is not None
        if customer_id is None:
            return None
        if self._data_for and self._data_for != customer_id:
            # Someone else's data may still be in this tab: it goes before theirs comes.
            await self._forget_everyones_personal_data()
        self._data_for = customer_id
        return customer_id

    @rx.event
    async def load(self):
        """on_load: signed-out visitors go to the login page, which brings them back."""
        self.view = "loading"
        self.details_message = self.password_message = self.data_message = ""
        self.delete_message = self.closed_message = self.busy = ""
        self.verification_message, self.verification_failed = "", False
        self.detail_errors = _no_errors(DETAIL_FIELDS)
        self.password_errors = _no_errors(PASSWORD_FIELDS)
        self.delete_errors = _no_errors(DELETE_FIELDS)
        customer_id = await self._customer()
        if customer_id is None:
            yield _to_login()
            return
        outcome = await call_service(_page_data, customer_id=customer_id)
        if not outcome.ok:
            self.view, self.closed_message = "closed", SOMETHING_WENT_WRONG
            return
        overview, calls = outcome.result()
        self._show(overview)
        self.calls = [_call(call) for call in calls]
        self.view = "ready"

    async def _act(
        self,
        call: ServiceCall,
        flag: str,
        service: Callable[..., Any],
        finish: Callable[[Outcome[Any]], Iterable[EventSpec]],
        **arguments: Any,
    ) -> AsyncIterator[EventSpec | None]:
        """One action of the signed-in customer: asked for again, the busy flag up while
        `service` runs (a form's input first, then the customer and their address), and
        `finish` turning the outcome into the page's texts and the events to send."""
        if isinstance(call, FormCall) and not call.valid:
            return
        customer_id = await self._customer()
        if customer_id is None:
            yield _to_login()
            return
        call.busy(self, flag)
        yield None  # the page shows the flag before the service runs
        client_ip = self.router.session.client_ip
        if isinstance(call, FormCall):
            outcome = await call.send(
                service, customer_id=customer_id, client_ip=client_ip, **arguments
            )
        else:
            outcome = await call.run(
                service, customer_id=customer_id, client_ip=client_ip, **arguments
            )
        for event in finish(outcome):
            yield event

    @rx.event
    async def save_details(self, form: dict[str, str]):
        self.details_message, self.details_failed = "", False
        call = await FormCall.read(ProfileInput, {name: form.get(name) for name in DETAIL_FIELDS})
        self.detail_errors = call.field_messages(DETAIL_FIELDS)
        async for event in self._act(call, "details", _save_details, self._details_saved):
            yield event

    def _details_saved(self, outcome: Outcome[accounts.AccountOverview]) -> list[EventSpec]:
        if outcome.ok:
            self._show(outcome.result())
            self.details_message = DETAILS_SAVED
        else:
            self.details_failed, self.details_message = True, outcome.message()
        return []

    @rx.event
    async def change_password(self, form: dict[str, str]):
        self.password_message, self.password_failed = "", False
        call = await FormCall.read(
            ChangePasswordInput, {name: form.get(name) for name in PASSWORD_FIELDS}
        )
        self.password_errors = call.field_messages(PASSWORD_FIELDS)
        changing = self._act(
            call, "password", accounts.change_password, self._password_changed, via_ticket=True
        )
        async for event in changing:
            yield event

    def _password_changed(self, outcome: Outcome[accounts.PasswordChanged]) -> list[EventSpec]:
        if not outcome.ok:
            if outcome.field_refusal:
                self.password_errors = outcome.field_messages(PASSWORD_FIELDS)
            else:
                self.password_failed, self.password_message = True, outcome.message()
            return []
        changed = outcome.result()
        self.password_message = changed.message
        self.form_version += 1  # empties the three fields
        # The session this tab had is ended too; the browser's cookie moves to the new.
        return [
            self._start_session(
                digest=changed.session_digest,
                cookie_ticket=changed.cookie_ticket,
                email=self.email,
            )
        ]

    def _close(self, message: str) -> list[EventSpec]:
        self._forget_personal_data()
        self.view, self.closed_message, self.signed_in = "closed", message, False
        return self._forget_login()

    def _forget_personal_data(self) -> None:
        # Once signed out, the stored state (pickled, in Redis when scaled) keeps nothing
        # of the customer.
        self.reset()

    @rx.event
    async def manage_call(self, booking_id: str):
        """The manage page of one of this customer's calls (never another's)."""
        customer_id = await self._customer()
        if customer_id is None:
            yield _to_login()
            return
        outcome = await call_service(
            _manage_url, customer_id=customer_id, booking_id=str(booking_id)[:20]
        )
        if outcome.ok and outcome.value:
            yield rx.redirect(outcome.value)
            return
        yield type(self).load

    @rx.event
    async def send_verification_again(self):
        self.verification_message, self.verification_failed = "", False
        sending = self._act(
            ServiceCall(), "verification", accounts.send_verification_again, self._sent
        )
        async for event in sending:
            yield event

    def _sent(self, outcome: Outcome[str]) -> list[EventSpec]:
        if outcome.ok:
            self.verification_message = outcome.result()
        else:
            self.verification_failed, self.verification_message = True, outcome.message()
        return []

    @rx.event
    async def sign_out_everywhere(self):
        self.data_message = ""
        signing_out = self._act(
            ServiceCall(), "sessions", accounts.sign_out_everywhere, self._closed
        )
        async for event in signing_out:
            yield event

    def _closed(self, outcome: Outcome[str]) -> list[EventSpec]:
        if outcome.ok:
            return self._close(outcome.result())
        self.data_message = outcome.message()
        return []

    @rx.event
    async def download_data(self):
        self.data_message = ""
        exporting = self._act(ServiceCall(), "export", accounts.export_account, self._exported)
        async for event in exporting:
            yield event

    def _exported(self, outcome: Outcome[dict[str, Any]]) -> list[EventSpec]:
        if not outcome.ok:
            self.data_message = outcome.message()
            return []
        return [
            rx.download(
                data=json.dumps(outcome.result(), indent=2, ensure_ascii=False),
                filename=EXPORT_FILE,
                mime_type="application/json",
            )
        ]

    @rx.event
    async def delete_account(self, form: dict[str, Any]):
        self.delete_message = ""
        raw = {"Password": form.get("Password"), "Confirm": bool(form.get("Confirm"))}
        call = await FormCall.read(DeleteAccountInput, raw)
        self.delete_errors = call.field_messages(DELETE_FIELDS)
        async for event in self._act(call, "delete", accounts.delete_account, self._deleted):
            yield event

    def _deleted(self, outcome: Outcome[str]) -> list[EventSpec]:
        if outcome.ok:
            return self._close(outcome.result())
        if outcome.field_refusal:
            self.delete_errors = outcome.field_messages(DELETE_FIELDS)
        else:
            self.delete_message = outcome.message()
        return []
