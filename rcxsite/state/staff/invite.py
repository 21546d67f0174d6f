"""/staff/invite/{token}: the invited member's way into the back office (a password,
then an authenticator app, then the recovery codes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import reflex as rx

from rcxsite.content import routes
from rcxsite.core import tokens
from rcxsite.staff import invitations
from rcxsite.staff.inputs import EnrolmentCodeInput, StaffPasswordInput
from rcxsite.state.one_time import show_once
from rcxsite.state.service_calls import FormCall, call_service
from rcxsite.state.staff.access import STAFF_HANDLERS, StaffState, home_page, staff_screen
from rcxsite.state.stored_data import holds_data

T = TypeVar("T")

# The slots of what the invitation page shows once.
ENROLMENT_QR, ENROLMENT_KEY, RECOVERY_CODES = "enrolment-qr", "enrolment-key", "recovery-codes"


@staff_screen
class StaffInviteState(rx.State):
    # "checking", "invalid", "password", "code", "codes"
    step: str = "checking"
    name: str = ""
    email: str = ""
    error: str = ""
    busy: bool = False
    field_errors: dict[str, str] = {"new_password": "", "confirm_new_password": "", "code": ""}
    # The key, its QR code and the recovery codes are shown once (state/one_time.py),
    # never kept here.
    # The link whose invitee's name and address this tab holds: whoever takes the tab over
    # gets them only on that same link (rcxsite/state/stored_data.py).
    _loaded_for: str = ""
    _checked_connection: str = ""

    def _link(self) -> str | None:
        return tokens.digest_in_path(self.router.url.path)

    async def _step(self, call: FormCall[Any], service: Callable[..., T]) -> T | None:
        """One step of the invitation on this link: its result, or None with the step's
        messages shown."""
        outcome = await call.send(
            service, link_digest=self._link(), client_ip=self.router.session.client_ip
        )
        self.field_errors = outcome.field_messages(self.field_errors.keys())
        if not outcome.ok:
            self.error = outcome.form_message()
            return None
        return outcome.result()

    async def _forget_unless_owner(self) -> None:
        """The link is the invitee's only credential here: a connection on another page
        (someone holding this tab's token, not the link) gets nothing."""
        if not self._loaded_for or self._loaded_for != self._link():
            await self._forget_stored_data()

    async def _forget_stored_data(self) -> None:
        if holds_data(self) or self._loaded_for:
            self.reset()
            self._loaded_for = ""

    @rx.event
    async def open_link(self):
        self.reset()
        link = self._link()
        outcome = await call_service(invitations.check_invitation, link_digest=link)
        if not outcome.ok:
            self.step, self.error = "invalid", outcome.message()
            return
        view = outcome.result()
        self.name, self.email, self.step = view.name, view.email, "password"
        self._loaded_for = link or ""

    @rx.event
    async def choose_password(self, form: dict[str, str]):
        if self.step != "password":
            return
        self.error = ""
        fields = {
            name: str(form.get(name, "")) for name in ("new_password", "confirm_new_password")
        }
        call = await FormCall.read(StaffPasswordInput, fields)
        call.busy(self)
        yield
        enrolment = await self._step(call, invitations.choose_password)
        if enrolment is None:
            return
        self.step = "code"
        yield show_once({ENROLMENT_QR: enrolment.qr_svg, ENROLMENT_KEY: enrolment.grouped_secret})

    @rx.event
    async def verify(self, form: dict[str, str]):
        if self.step != "code":
            return
        self.error = ""
        call = await FormCall.read(EnrolmentCodeInput, {"code": str(form.get("code", ""))})
        call.busy(self)
        yield
        done = await self._step(call, invitations.finish_enrolment)
        if done is None:
            return
        self.step = "codes"
        yield show_once({RECOVERY_CODES: list(done.recovery_codes)})
        staff = await self.get_state(StaffState)
        yield staff._remember_sign_in(done.session_digest, done.cookie_ticket, done.actor)

    @rx.event
    async def done(self):
        """After the recovery codes: the member's first page (the hiring team's is
        Candidates; anyone else, or a tab no longer signed in, the inbox, which asks)."""
        staff = await self.get_state(StaffState)
        actor = await staff._actor()
        return rx.redirect(home_page(actor) if actor is not None else routes.STAFF_INBOX.path)


# Public by design: a way in, before anyone is signed in.
for _handler in ("open_link", "choose_password", "verify", "done"):
    STAFF_HANDLERS[f"StaffInviteState.{_handler}"] = None

__all__ = ["StaffInviteState"]
