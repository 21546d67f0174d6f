"""/forgot-password and /authentication/reset-password/{token}."""

from __future__ import annotations

import reflex as rx

from rcxsite import accounts
from rcxsite.accounts.inputs import (
    CONFIRM_PASSWORD_REQUIRED,
    NEW_PASSWORDS_DIFFER,
    ForgotPasswordInput,
    ResetPasswordInput,
)
from rcxsite.accounts.reset import PASSWORD_RESET
from rcxsite.content import routes
from rcxsite.core import tokens
from rcxsite.state import messages as msg
from rcxsite.state.login import LoginState
from rcxsite.state.service_calls import FormCall, call_service
from rcxsite.state.session import SessionState


class ForgotPasswordState(rx.State):
    email_error: str = ""
    busy: bool = False
    result: str = ""

    @rx.event
    async def send_link(self, form: dict[str, str]):
        call = await FormCall.read(ForgotPasswordInput, {"email": form.get("email")})
        self.email_error = call.field_messages(("email",))["email"]
        if not call.valid:
            return
        call.busy(self)
        yield
        outcome = await call.send(
            accounts.request_password_reset, client_ip=self.router.session.client_ip
        )
        self.result = (
            outcome.result() or msg.RESET_LINK_SENT
            if outcome.ok
            else outcome.message(refused=msg.RESET_LINK_FAILED)
        )

    @rx.event
    def clear_result(self) -> None:
        self.result = ""


class ResetPasswordState(rx.State):
    status: str = "verifying"
    email: str = ""
    new_password_error: str = ""
    confirm_error: str = ""
    busy: bool = False
    error: str = ""
    notice: str = ""

    @rx.event
    async def verify(self):
        """on_load: any failure to confirm the link marks it invalid (never valid by default)."""
        self.status, self.error, self.notice, self.email = "verifying", "", "", ""
        self.new_password_error = self.confirm_error = ""
        self.busy = False
        yield
        outcome = await call_service(
            accounts.check_reset_link,
            link_digest=tokens.digest_in_path(self.router.url.path),
            client_ip=self.router.session.client_ip,
        )
        check = outcome.value or accounts.ResetCheck(is_valid=False)
        self.status = "valid" if check.is_valid else "invalid"
        self.email = check.email

    @rx.event
    async def reset_password(self, form: dict[str, str]):
        new_password = form.get("newPassword")
        confirm = form.get("confirmPassword")
        self.error = ""
        call = await FormCall.read(
            ResetPasswordInput, {"NewPassword": new_password, "email": self.email}
        )
        self.new_password_error = call.field_messages(("NewPassword",))["NewPassword"]
        if not confirm:
            self.confirm_error = CONFIRM_PASSWORD_REQUIRED
        elif confirm != new_password:
            self.confirm_error = NEW_PASSWORDS_DIFFER
        else:
            self.confirm_error = ""
        if self.new_password_error or self.confirm_error:
            return
        if not call.valid:  # the address or the link itself is unusable
            self.error = call.checked.message()
            return
        call.busy(self, keep_after_success=True)  # the page moves on to log in
        yield
        outcome = await call.send(
            accounts.reset_password_for_link,
            link_digest=tokens.digest_in_path(self.router.url.path),
            client_ip=self.router.session.client_ip,
        )
        if outcome.ok:
            self.status = "done"
            self.notice = outcome.result() or PASSWORD_RESET
            (await self.get_state(LoginState))._note_password_changed()
            yield SessionState.redirect_later(routes.LOG_IN.path)
            return
        self.error = outcome.message(refused=msg.RESET_FAILED, broken=msg.RESET_BROKEN)
