"""/forgot-password and /authentication/reset-password/{token} (spec §4, §5, §8)."""

from __future__ import annotations

import asyncio
import logging

import reflex as rx

from rcxsite import accounts, routes
from rcxsite.accounts import tokens
from rcxsite.accounts.inputs import ForgotPasswordInput, ResetPasswordInput
from rcxsite.state import messages as msg
from rcxsite.state.session import SessionState

logger = logging.getLogger(__name__)


def _link_digest(path: str) -> str | None:
    """The digest that stands for the reset token in the link's last path segment by the
    time an event reaches the state (rcxsite/api/reset_link_events.py)."""
    return tokens.marked_digest(path.rstrip("/").rsplit("/", 1)[-1])


class ForgotPasswordState(rx.State):
    email_error: str = ""
    sending: bool = False
    result: str = ""

    @rx.event
    async def send_link(self, form: dict[str, str]):
        raw = {"email": form.get("email")}
        forgot, errors = await asyncio.to_thread(ForgotPasswordInput.read, raw)
        self.email_error = errors.get("email", "")
        if forgot is None:
            return
        email = forgot.email
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
    resetting: bool = False
    error: str = ""
    notice: str = ""

    @rx.event
    async def verify(self):
        """on_load: any failure to confirm the link marks it invalid (spec §8)."""
        self.status, self.error, self.notice, self.email = "verifying", "", "", ""
        self.new_password_error = self.confirm_error = ""
        self.resetting = False
        yield
        try:
            check = await asyncio.to_thread(
                accounts.check_reset_link, link_digest=_link_digest(self.router.url.path),
                client_ip=self.router.session.client_ip,
            )
        except Exception:
            logger.info("reset link check failed", exc_info=True)
            check = accounts.ResetCheck(is_valid=False)
        self.status = "valid" if check.is_valid else "invalid"
        self.email = check.email

    @rx.event
    async def reset_password(self, form: dict[str, str]):
        new_password = form.get("newPassword")
        confirm = form.get("confirmPassword")
        self.error = ""
        raw = {"NewPassword": new_password, "email": self.email}
        reset, errors = await asyncio.to_thread(ResetPasswordInput.read, raw)
        self.new_password_error = errors.get("NewPassword", "")
        if not confirm:
            self.confirm_error = msg.CONFIRM_REQUIRED
        elif confirm != new_password:
            self.confirm_error = msg.PASSWORDS_DIFFER
        else:
            self.confirm_error = ""
        if self.new_password_error or self.confirm_error:
            return
        if reset is None:  # the address or the link itself is unusable
            self.error = next(iter(errors.values()))
            return
        self.resetting = True
        yield
        try:
            answer = await asyncio.to_thread(
                accounts.reset_password_for_link, email=reset.email,
                new_password=reset.new_password, link_digest=_link_digest(self.router.url.path),
                client_ip=self.router.session.client_ip,
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
