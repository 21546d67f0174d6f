"""/verify-email/{token}: the link registration mails, verified as the page loads, for the
signed-in customer it was sent for only (rcxsite.accounts.verification)."""

from __future__ import annotations

import reflex as rx

from rcxsite import accounts
from rcxsite.accounts.verification import LOG_IN_TO_VERIFY
from rcxsite.core import tokens
from rcxsite.state.login import LoginState
from rcxsite.state.service_calls import call_service
from rcxsite.state.session import SessionState


class VerifyEmailState(SessionState):
    # "verifying", then "verified", "log_in" (nobody is signed in: the link waits for its
    # account's owner), "invalid" (a link that cannot be used) or "failed" (`message` says
    # why: another customer is signed in, a rate limit, or something unexpected).
    status: str = "verifying"
    message: str = ""
    # The link this tab verified: a tab that reconnects loads the page again, and must
    # not then call its own, now used, link invalid.
    _verified: str = ""

    @rx.event
    async def verify(self):
        """on_load: the link is used up only by the signed-in customer it was sent for."""
        digest = tokens.digest_in_path(self.router.url.path)
        if digest is not None and digest == self._verified:
            self.status = "verified"
            return
        self.status, self.message = "verifying", ""
        yield
        customer_id = await self._signed_in_customer()
        self.signed_in = customer_id is not None
        if customer_id is None:
            # Whoever only received the mail (someone else may have registered their
            # address) must not verify that account by opening it: the link waits, unused,
            # for the account owner's login in this tab (LoginState), which verifies it.
            self.status, self.message = "log_in", LOG_IN_TO_VERIFY
            if digest is not None:
                (await self.get_state(LoginState))._verify_after_login(digest)
            return
        outcome = await call_service(
            accounts.verify_email_link,
            link_digest=digest,
            customer_id=customer_id,
            client_ip=self.router.session.client_ip,
        )
        if outcome.ok:
            self.status, self._verified = "verified", digest or ""
        elif outcome.refusal is not None and outcome.refusal.status == 400:
            self.status = "invalid"
        else:
            self.status, self.message = "failed", outcome.message()
