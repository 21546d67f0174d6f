"""The registration form on /log-in (spec §4, §5, §8)."""

from __future__ import annotations

import asyncio
import logging

import reflex as rx

from rcxsite import accounts
from rcxsite.state import messages as msg
from rcxsite.state.login import LoginState

logger = logging.getLogger(__name__)

REGISTER_FORM_ID = "register-form"
# Form field name -> the service's keyword argument.
FIELDS = {
    "UserName": "user_name",
    "EmailAddress": "email",
    "MobileNumber": "mobile_number",
    "Password": "password",
    "CompanyName": "company_name",
    "Location": "location",
}


class RegistrationState(LoginState):
    field_errors: dict[str, str] = dict.fromkeys(FIELDS, "")
    registering: bool = False
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
        values = {argument: str(form.get(name, "")) for name, argument in FIELDS.items()}
        plan = {
            "project_id": self.project_id,
            "subscription_plan_id": self.subscription_plan_id,
            "plan_duration_id": self.plan_duration_id,
            "is_trial": self.is_trial,
        }
        errors = accounts.validate_registration(**values, **plan)
        self.field_errors = {name: errors.get(name, "") for name in FIELDS}
        if errors:
            return
        self.registering = True
        yield
        try:
            customer = await asyncio.to_thread(accounts.register, **values, **plan)
        except accounts.AccountError as refusal:
            detail = msg.REGISTER_ERROR_PREFIX + refusal.message if refusal.message else ""
            self._show_dialog("Registration failed", detail or msg.REGISTER_FAILED)
        except Exception:
            logger.exception("registration failed unexpectedly")
            self._show_dialog("Registration failed", msg.REGISTER_BROKEN)
        else:
            self._show_dialog("Welcome", customer.message or msg.REGISTERED)
            self.email = values["email"]
            self.mode = "login"
            self.project_id = self.subscription_plan_id = self.plan_duration_id = None
            self.is_trial = False
            yield rx.call_script(f"document.getElementById('{REGISTER_FORM_ID}')?.reset()")
        finally:
            self.registering = False
