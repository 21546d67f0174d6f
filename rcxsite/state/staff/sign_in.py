"""/staff/log-in and /staff/invite/{token}: the ways into the back office."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx

from rcxsite import routes
from rcxsite.accounts import tokens
from rcxsite.staff import invitations
from rcxsite.staff.inputs import EnrolmentCodeInput, StaffPasswordInput, StaffSignInInput
from rcxsite.staff.sign_in import sign_in
from rcxsite.state.one_time import show_once
from rcxsite.state.service_calls import call_service
from rcxsite.state.staff.access import STAFF_HANDLERS, StaffState

# The slots of what the invitation page shows once.
ENROLMENT_QR, ENROLMENT_KEY, RECOVERY_CODES = "enrolment-qr", "enrolment-key", "recovery-codes"

SIGN_IN_FIELDS = StaffSignInInput.field_names()
_TIME_ZONE_SCRIPT = (
    "(() => { const field = document.getElementById('staff-time-zone'); "
    "if (field) field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ''; })()"
)


def _next_page(target: str) -> str:
    """Only a staff page of this site: a link cannot send a member elsewhere."""
    if target.startswith("/staff") and not target.startswith(routes.STAFF_LOG_IN.path):
        return target
    return routes.STAFF_INBOX.path


class StaffSignInState(rx.State):
    field_errors: dict[str, str] = dict.fromkeys(SIGN_IN_FIELDS, "")
    error: str = ""
    busy: bool = False

    @rx.event
    def prepare(self):
        self.error, self.busy = "", False
        self.field_errors = dict.fromkeys(SIGN_IN_FIELDS, "")
        return rx.call_script(_TIME_ZONE_SCRIPT)

    @rx.event
    async def sign_in(self, form: dict[str, str]):
        self.busy, self.error = True, ""
        yield
        fields = {name: str(form.get(name, "")) for name in SIGN_IN_FIELDS}
        outcome = await call_service(_sign_in, fields, client_ip=self.router.session.client_ip)
        self.busy = False
        self.field_errors = outcome.field_messages(SIGN_IN_FIELDS)
        if not outcome.ok:
            self.error = "" if outcome.field_refusal else outcome.message()
            return
        signed_in = outcome.result()
        staff = await self.get_state(StaffState)
        target = self.router.url.query_parameters.get("next", "")
        yield staff._remember_sign_in(
            signed_in.session_digest, signed_in.cookie_ticket, signed_in.actor,
            then=_next_page(target if isinstance(target, str) else ""),
        )


def _sign_in(fields: dict[str, str], *, client_ip: str):  # type: ignore[no-untyped-def]
    return sign_in(StaffSignInInput.parse(fields), client_ip=client_ip)


def _link_digest(path: str) -> str | None:
    return tokens.marked_digest(path.rstrip("/").rsplit("/", 1)[-1])


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

    def _link(self) -> str | None:
        return _link_digest(self.router.url.path)

    async def _step(self, call: Callable[..., Any], fields: dict[str, str]) -> Any:
        """One step of the invitation on this link: its result, or None with the step's
        messages shown."""
        outcome = await call_service(call, fields, link_digest=self._link(),
                                     client_ip=self.router.session.client_ip)
        self.busy = False
        self.field_errors = outcome.field_messages(self.field_errors.keys())
        if not outcome.ok:
            self.error = "" if outcome.field_refusal else outcome.message()
            return None
        return outcome.result()

    @rx.event
    async def open_link(self):
        self.reset()
        outcome = await call_service(invitations.check_invitation, link_digest=self._link())
        if not outcome.ok:
            self.step, self.error = "invalid", outcome.message()
            return
        view = outcome.result()
        self.name, self.email, self.step = view.name, view.email, "password"

    @rx.event
    async def choose_password(self, form: dict[str, str]):
        if self.step != "password":
            return
        self.busy, self.error = True, ""
        yield
        fields = {name: str(form.get(name, "")) for name in ("new_password",
                                                               "confirm_new_password")}
        enrolment = await self._step(_choose_password, fields)
        if enrolment is None:
            return
        self.step = "code"
        yield show_once({ENROLMENT_QR: enrolment.qr_svg, ENROLMENT_KEY: enrolment.grouped_secret})

    @rx.event
    async def verify(self, form: dict[str, str]):
        if self.step != "code":
            return
        self.busy, self.error = True, ""
        yield
        done = await self._step(_finish, {"code": str(form.get("code", ""))})
        if done is None:
            return
        self.step = "codes"
        yield show_once({RECOVERY_CODES: list(done.recovery_codes)})
        staff = await self.get_state(StaffState)
        yield staff._remember_sign_in(done.session_digest, done.cookie_ticket, done.actor)

    @rx.event
    def done(self):
        return rx.redirect(routes.STAFF_INBOX.path)


def _choose_password(fields: dict[str, str], **context: object) -> invitations.Enrolment:
    return invitations.choose_password(StaffPasswordInput.parse(fields), **context)  # type: ignore[arg-type]


def _finish(fields: dict[str, str], **context: object) -> invitations.EnrolmentDone:
    return invitations.finish_enrolment(EnrolmentCodeInput.parse(fields), **context)  # type: ignore[arg-type]


# Public by design: the ways in, before anyone is signed in.
for _handler in ("prepare", "sign_in"):
    STAFF_HANDLERS[f"StaffSignInState.{_handler}"] = None
for _handler in ("open_link", "choose_password", "verify", "done"):
    STAFF_HANDLERS[f"StaffInviteState.{_handler}"] = None

__all__ = ["StaffInviteState", "StaffSignInState"]
