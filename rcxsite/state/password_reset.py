"""/forgot-password and /authentication/reset-password/{token} (spec §4, §5, §8)."""

from __future__ import annotations

import asyncio
import logging
import re

import reflex as rx

from rcxsite import accounts, routes
from rcxsite.state import messages as msg
from rcxsite.state.session import SessionState

logger = logging.getLogger(__name__)

# Spec §5: the {email} pattern with no spaces anywhere.
EMAIL_PATTERN = re.compile(r"^[^\s@]+@[^\s@]+\.[^\s@]+$")


class ForgotPasswordState(rx.State):
    email_error: str = ""
    sending: bool = False
    result: str = ""

    @rx.event
    async def send_link(self, form: dict[str, str]):
        email = str(form.get("email", ""))
        if not email:
            self.email_error = msg.EMAIL_REQUIRED
        elif not EMAIL_PATTERN.match(email):
            self.email_error = msg.INVALID_EMAIL_ADDRESS
        else:
            self.email_error = ""
        if self.email_error:
            return
        self.sending = True
        yield
        try:
            answer = await asyncio.to_thread(
                accounts.request_password_reset, email=email,
                client_ip=self.router.session.client_ip,
            )
        except accounts.AccountError as refusal:
            self.result = refusal.message or msg.RESET_LINK_FAILED
        except Exception:
            logger.exception("reset link request failed unexpectedly")
            self.result = msg.RESET_LINK_BROKEN
        else:
            self.result = answer or msg.RESET_LINK_SENT
        finally:
            self.sending = False

    @rx.event
    def clear_result(self) -> None:
        self.result = ""


class ResetPasswordState(rx.State):
    status: str = "verifying"
    email: str = ""
    new_password_error: str = ""
    confirm_error: str = ""
    show_new: bool = False
    show_confirm: bool = False
    resetting: bool = False
    error: str = ""
    notice: str = ""
    _token: str = ""

    @rx.event
    async def verify(self):
        """on_load: any failure to confirm the link marks it invalid (spec §8)."""
        self._token = self.router.url.path.rstrip("/").rsplit("/", 1)[-1]
        self.status, self.error, self.notice, self.email = "verifying", "", "", ""
        self.new_password_error = self.confirm_error = ""
        self.resetting = False
        yield
        try:
            check = await asyncio.to_thread(
                accounts.check_reset_token, token=self._token,
                client_ip=self.router.session.client_ip,
            )
        except Exception:
            logger.info("reset link check failed", exc_info=True)
            check = accounts.ResetCheck(is_valid=False)
        self.status = "valid" if check.is_valid else "invalid"
        self.email = check.email

    @rx.event
    def toggle_new(self) -> None:
        self.show_new = not self.show_new

    @rx.event
    def toggle_confirm(self) -> None:
        self.show_confirm = not self.show_confirm

    @rx.event
    async def reset_password(self, form: dict[str, str]):
        new_password = str(form.get("newPassword", ""))
        confirm = str(form.get("confirmPassword", ""))
        self.error = ""
        if not new_password:
            self.new_password_error = msg.NEW_PASSWORD_REQUIRED
        elif len(new_password) < msg.MIN_PASSWORD_LENGTH:
            self.new_password_error = msg.NEW_PASSWORD_TOO_SHORT
        else:
            self.new_password_error = ""
        if not confirm:
            self.confirm_error = msg.CONFIRM_REQUIRED
        elif confirm != new_password:
            self.confirm_error = msg.PASSWORDS_DIFFER
        else:
            self.confirm_error = ""
        if self.new_password_error or self.confirm_error:
            return
        self.resetting = True
        yield
        try:
            answer = await asyncio.to_thread(
                accounts.reset_password, email=self.email, new_password=new_password,
                token=self._token,
            )
        except accounts.AccountError as refusal:
            self.error = refusal.message or msg.RESET_FAILED
        except Exception:
            logger.exception("password reset failed unexpectedly")
            self.error = msg.RESET_BROKEN
        else:
            self.status = "done"
            self.notice = answer or msg.RESET_DONE
            yield SessionState.redirect_later(routes.LOG_IN.path)
            return
        self.resetting = False
