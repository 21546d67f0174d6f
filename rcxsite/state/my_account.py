"""/account: the signed-in customer's own area, a thin adapter over rcxsite.accounts.

Every handler asks the server-side session again (SessionState._signed_in_customer), so a
session ended elsewhere (sign out everywhere, a password change in another browser)
ends this page's powers too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import reflex as rx

from rcxsite import accounts, routes
from rcxsite.accounts.inputs import ChangePasswordInput, DeleteAccountInput, ProfileInput
from rcxsite.accounts.my_account import DETAILS_SAVED
from rcxsite.state.login import log_in_path
from rcxsite.state.messages import SOMETHING_WENT_WRONG
from rcxsite.state.service_calls import Outcome, call_service, messages_for
from rcxsite.state.session import SessionState

T = TypeVar("T")

DETAIL_FIELDS = ProfileInput.field_names()
PASSWORD_FIELDS = ChangePasswordInput.field_names()
DELETE_FIELDS = DeleteAccountInput.field_names()
EXPORT_FILE = "rcx-account-data.json"


def _to_login() -> rx.event.EventSpec:
    return rx.redirect(log_in_path(routes.ACCOUNT.path))


def _no_errors(fields: tuple[str, ...]) -> dict[str, str]:
    return dict.fromkeys(fields, "")


def _day(moment: Any) -> str:
    return f"{moment.day} {moment:%b %Y}"


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
    # Until the customer opened a link mailed to `email`, `quotes` stays empty.
    email_verified: bool = False
    quotes: list[dict[str, str]] = []
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
        self.email_verified = overview.email_verified
        self.quotes = [
            {"date": _day(quote.sent_on), "service": quote.service, "status": quote.status}
            for quote in overview.quotes
        ]
        # The forms start again from the stored values only when those changed: a tab that
        # reconnects loads the page again, and must not wipe what the visitor is typing.
        if shown != (self.user_name, self.mobile_number, self.company_name, self.location):
            self.form_version += 1

    async def _act(self, call: Callable[[int], T]) -> Outcome[T] | None:
        """Runs one account action for the signed-in customer; None when nobody is signed
        in any more (the caller sends the visitor to the login page)."""
        try:
            customer_id = await self._signed_in_customer()
            self.signed_in = customer_id is not None
            if customer_id is None:
                return None
            if self._data_for and self._data_for != customer_id:
                # Someone else's data may still be in this tab: it goes before theirs comes.
                await self._forget_everyones_personal_data()
            self._data_for = customer_id
            return await call_service(call, customer_id)
        finally:
            self.busy = ""

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
        outcome = await self._act(lambda customer_id: accounts.account_overview(
            customer_id=customer_id))
        if outcome is None:
            yield _to_login()
            return
        if not outcome.ok:
            self.view, self.closed_message = "closed", SOMETHING_WENT_WRONG
            return
        self._show(outcome.result())
        self.view = "ready"

    @rx.event
    async def save_details(self, form: dict[str, str]):
        self.details_message, self.details_failed = "", False
        details, errors = ProfileInput.read({name: form.get(name) for name in DETAIL_FIELDS})
        self.detail_errors = messages_for(DETAIL_FIELDS, errors)
        if details is None:
            return
        client_ip = self.router.session.client_ip

        def call(customer_id: int) -> accounts.AccountOverview:
            accounts.update_details(details, customer_id=customer_id, client_ip=client_ip)
            return accounts.account_overview(customer_id=customer_id)

        self.busy = "details"
        yield
        outcome = await self._act(call)
        if outcome is None:
            yield _to_login()
        elif outcome.ok:
            self._show(outcome.result())
            self.details_message = DETAILS_SAVED
        else:
            self.details_failed, self.details_message = True, outcome.message()

    @rx.event
    async def change_password(self, form: dict[str, str]):
        self.password_message, self.password_failed = "", False
        change, errors = ChangePasswordInput.read(
            {name: form.get(name) for name in PASSWORD_FIELDS}
        )
        self.password_errors = messages_for(PASSWORD_FIELDS, errors)
        if change is None:
            return
        client_ip = self.router.session.client_ip

        def call(customer_id: int) -> accounts.PasswordChanged:
            return accounts.change_password(
                change, customer_id=customer_id, client_ip=client_ip, via_ticket=True
            )

        self.busy = "password"
        yield
        outcome = await self._act(call)
        if outcome is None:
            yield _to_login()
        elif outcome.ok:
            changed = outcome.result()
            # The session this tab had is ended too; the browser's cookie moves to the new.
            yield self._start_session(
                digest=changed.session_digest, cookie_ticket=changed.cookie_ticket,
                email=self.email,
            )
            self.password_message = changed.message
            self.form_version += 1  # empties the three fields
        elif outcome.field_refusal:
            self.password_errors = outcome.field_messages(PASSWORD_FIELDS)
        else:
            self.password_failed, self.password_message = True, outcome.message()

    def _close(self, message: str) -> list[rx.event.EventSpec]:
        self._forget_personal_data()
        self.view, self.closed_message, self.signed_in = "closed", message, False
        return self._forget_login()

    def _forget_personal_data(self) -> None:
        # Once signed out, the stored state (pickled, in Redis when scaled) keeps nothing
        # of the customer.
        self.reset()

    @rx.event
    async def send_verification_again(self):
        self.verification_message, self.verification_failed = "", False
        client_ip = self.router.session.client_ip
        self.busy = "verification"
        yield
        outcome = await self._act(lambda customer_id: accounts.send_verification_again(
            customer_id=customer_id, client_ip=client_ip))
        if outcome is None:
            yield _to_login()
        elif outcome.ok:
            self.verification_message = outcome.result()
        else:
            self.verification_failed, self.verification_message = True, outcome.message()

    @rx.event
    async def sign_out_everywhere(self):
        self.data_message = ""
        client_ip = self.router.session.client_ip
        self.busy = "sessions"
        yield
        outcome = await self._act(lambda customer_id: accounts.sign_out_everywhere(
            customer_id=customer_id, client_ip=client_ip))
        if outcome is None:
            yield _to_login()
        elif outcome.ok:
            yield self._close(outcome.result())
        else:
            self.data_message = outcome.message()

    @rx.event
    async def download_data(self):
        self.data_message = ""
        client_ip = self.router.session.client_ip
        self.busy = "export"
        yield
        outcome = await self._act(lambda customer_id: accounts.export_account(
            customer_id=customer_id, client_ip=client_ip))
        if outcome is None:
            yield _to_login()
        elif outcome.ok:
            yield rx.download(
                data=json.dumps(outcome.result(), indent=2, ensure_ascii=False),
                filename=EXPORT_FILE, mime_type="application/json",
            )
        else:
            self.data_message = outcome.message()

    @rx.event
    async def delete_account(self, form: dict[str, Any]):
        self.delete_message = ""
        raw = {"Password": form.get("Password"), "Confirm": bool(form.get("Confirm"))}
        deletion, errors = DeleteAccountInput.read(raw)
        self.delete_errors = messages_for(DELETE_FIELDS, errors)
        if deletion is None:
            return
        client_ip = self.router.session.client_ip

        def call(customer_id: int) -> str:
            return accounts.delete_account(deletion, customer_id=customer_id, client_ip=client_ip)

        self.busy = "delete"
        yield
        outcome = await self._act(call)
        if outcome is None:
            yield _to_login()
        elif outcome.ok:
            yield self._close(outcome.result())
        elif outcome.field_refusal:
            self.delete_errors = outcome.field_messages(DELETE_FIELDS)
        else:
            self.delete_message = outcome.message()
