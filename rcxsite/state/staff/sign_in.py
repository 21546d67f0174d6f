"""/staff/log-in: an enrolled member's way into the back office."""

from __future__ import annotations

import reflex as rx

from rcxsite.content import routes
from rcxsite.core.permissions import StaffActor
from rcxsite.staff.inputs import StaffSignInInput
from rcxsite.staff.sign_in import sign_in
from rcxsite.state.service_calls import FormCall
from rcxsite.state.staff.access import STAFF_HANDLERS, StaffState, home_page, staff_screen

SIGN_IN_FIELDS = StaffSignInInput.field_names()
_TIME_ZONE_SCRIPT = (
    "(() => { const field = document.getElementById('staff-time-zone'); "
    "if (field) field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ''; })()"
)


def _next_page(target: str, actor: StaffActor) -> str:
    """Only a staff page of this site: a link cannot send a member elsewhere; without
    one, the member's first page (the hiring team's is Candidates)."""
    if target.startswith("/staff") and not target.startswith(routes.STAFF_LOG_IN.path):
        return target
    return home_page(actor)


@staff_screen
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
        self.error = ""
        fields = {name: str(form.get(name, "")) for name in SIGN_IN_FIELDS}
        call = await FormCall.read(StaffSignInInput, fields)
        call.busy(self)
        yield
        outcome = await call.send(sign_in, client_ip=self.router.session.client_ip)
        self.field_errors = outcome.field_messages(SIGN_IN_FIELDS)
        if not outcome.ok:
            self.error = outcome.form_message()
            return
        signed_in = outcome.result()
        staff = await self.get_state(StaffState)
        target = self.router.url.query_parameters.get("next", "")
        yield staff._remember_sign_in(
            signed_in.session_digest,
            signed_in.cookie_ticket,
            signed_in.actor,
            then=_next_page(target if isinstance(target, str) else "", signed_in.actor),
        )


# Public by design: a way in, before anyone is signed in.
for _handler in ("prepare", "sign_in"):
    STAFF_HANDLERS[f"StaffSignInState.{_handler}"] = None

__all__ = ["StaffSignInState"]
