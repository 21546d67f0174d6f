"""/careers/withdraw/<token>: the link in an applicant's confirmation mail. No login: the
token is the key, sealed before Reflex reads it (rcxsite/web/sealed_event_paths.py). The
page asks first, then erases the application and its CV at once."""

from __future__ import annotations

import reflex as rx

from rcxsite import careers
from rcxsite.core import tokens
from rcxsite.state.service_calls import ServiceCall, call_service

LOAD_BROKEN = "Your application could not be found just now. Please try again in a few minutes."


class WithdrawState(rx.State):
    # "loading", "ready" (asks to confirm), "invalid", "done".
    status: str = "loading"
    opening_title: str = ""
    applied_on: str = ""
    notice: str = ""
    error: str = ""
    busy: bool = False

    def _digest(self) -> str | None:
        return tokens.digest_in_path(self.router.url.path)

    @rx.event
    async def load(self):
        self.status, self.notice, self.error = "loading", "", ""
        self.opening_title = self.applied_on = ""
        yield
        outcome = await call_service(careers.withdrawal_preview, link_digest=self._digest())
        if outcome.ok:
            preview = outcome.result()
            self.opening_title, self.applied_on = preview.opening_title, preview.applied_on
            self.status = "ready"
            return
        self.status = "invalid"
        self.notice = outcome.message(broken=LOAD_BROKEN)

    @rx.event
    async def confirm(self):
        call = ServiceCall()
        call.busy(self)
        yield
        outcome = await call.run(careers.withdraw, link_digest=self._digest())
        if outcome.ok:
            self.status, self.notice = "done", outcome.result()
            self.opening_title = self.applied_on = ""
            return
        if outcome.refusal is not None and outcome.refusal.status == 404:
            self.status, self.notice = "invalid", outcome.message()
            return
        self.error = outcome.message()
