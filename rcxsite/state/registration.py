"""The registration form on /log-in."""

from __future__ import annotations

import reflex as rx

from rcxsite import accounts
from rcxsite.accounts.inputs import RegistrationInput
from rcxsite.accounts.results import REGISTERED_MESSAGE
from rcxsite.state import messages as msg
from rcxsite.state.analytics.page_views import PageViewState
from rcxsite.state.login import LoginState
from rcxsite.state.service_calls import FormCall

REGISTER_FORM_ID = "register-form"
# The form's inputs are the model's text fields, named by their aliases; the plan comes
# from the state instead.
FIELDS = tuple(
    field.alias
    for field in RegistrationInput.model_fields.values()
    if field.alias and field.annotation is str
)


class RegistrationState(LoginState):
    field_errors: dict[str, str] = dict.fromkeys(FIELDS, "")
    # The busy flag is LoginState's `busy`: the page shows one of the two forms at a time.
    dialog_open: bool = False
    dialog_title: str = ""
    dialog_message: str = ""

    def _show_dialog(self, title: str, message: str) -> None:
        self.dialog_title, self.dialog_message, self.dialog_open = title, message, True

    @rx.event
    def close_dialog(self) -> None:
        self.dialog_open = False

    @rx.event
    async def register(self, form: dict[str, str]):
        raw = {name: form.get(name) for name in FIELDS} | {
            "ProjectId": self.project_id,
            "SubscriptionPlanId": self.subscription_plan_id,
            "PlanDurationId": self.plan_duration_id,
            "IsTrial": self.is_trial,
        }
        call = await FormCall.read(RegistrationInput, raw)
        self.field_errors = call.field_messages(FIELDS)
        registration = call.input
        if registration is None:
            return
        call.busy(self)
        yield
        outcome = await call.send(
            accounts.register,
            client_ip=self.router.session.client_ip,
            attribution=(await self.get_state(PageViewState))._attribution(),
        )
        if not outcome.ok:
            # A refusal shows its own text after "Error: "; anything else a fixed text.
            own = outcome.refusal.message if outcome.refusal else ""
            self._show_dialog(
                "Registration failed",
                msg.REGISTER_ERROR_PREFIX + own
                if own
                else outcome.message(refused=msg.REGISTER_FAILED, broken=msg.REGISTER_BROKEN),
            )
            return
        self._show_dialog("Welcome", outcome.result().message or REGISTERED_MESSAGE)
        self.email = registration.email
        self.mode = "login"
        self.project_id = self.subscription_plan_id = self.plan_duration_id = None
        self.is_trial = False
        yield rx.call_script(f"document.getElementById('{REGISTER_FORM_ID}')?.reset()")
