"""/log-in: the login form and the plan context that registration carries."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import reflex as rx

from rcxsite import accounts
from rcxsite.accounts.inputs import LoginInput
from rcxsite.accounts.results import LOGGED_IN_MESSAGE
from rcxsite.accounts.verification import EMAIL_VERIFIED
from rcxsite.content import routes
from rcxsite.content.pricing import DURATIONS, PLANS
from rcxsite.state import messages as msg
from rcxsite.state.service_calls import FormCall, call_service
from rcxsite.state.session import SessionState

logger = logging.getLogger(__name__)

PLAN_PARAMS = ("ProjectId", "SubscriptionPlanId", "PlanDurationId", "IsTrial")


def _positive_int(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isdigit() and 0 < int(raw) < 2**31 else None


def log_in_path(return_to: str) -> str:
    """The login page that comes back to `return_to` (one of routes.RETURN_AFTER_LOGIN)."""
    return f"{routes.LOG_IN.path}?next={return_to}"


def plan_query(*, project_id: int, plan_id: int, duration_id: int, is_trial: bool) -> str:
    """The /log-in address that carries a chosen plan to the registration form."""
    values = (project_id, plan_id, duration_id, str(is_trial).lower())
    query = "&".join(f"{name}={value}" for name, value in zip(PLAN_PARAMS, values, strict=True))
    return f"{routes.LOG_IN.path}?{query}"


class LoginState(SessionState):
    mode: str = "login"
    # What the login form's Email field starts with: the address of this browser's own
    # login cookie (a login that lapsed), or the one registration just created. Reflex
    # stores a tab's state and hands it to whoever presents the tab's token, so nothing
    # else is kept here, and nothing once the customer is logged in or out.
    email: str = ""
    email_error: str = ""
    password_error: str = ""
    busy: bool = False
    notice: str = ""
    error: str = ""

    # Where a successful login goes: a page that sent the visitor here (`?next=`), or home.
    return_to: str = routes.HOME.path
    # Set by a reset that worked, for the login page it moves on to (shown once).
    _password_changed: bool = False
    # A verification link opened signed out, by its token's digest (never the link: a
    # token must not reach this state): the login that follows verifies it.
    _verify_digest: str = ""

    project_id: int | None = None
    subscription_plan_id: int | None = None
    plan_duration_id: int | None = None
    is_trial: bool = False

    @rx.var
    def plan_summary(self) -> str:
        plan = next((p for p in PLANS if p.id == self.subscription_plan_id), None)
        if plan is None:
            return ""
        duration = next((d.label for d in DURATIONS if d.id == self.plan_duration_id), "")
        details = ", ".join(
            part for part in (duration.lower(), "free trial" if self.is_trial else "") if part
        )
        return f"You are registering for the {plan.name} plan" + (
            f" ({details})." if details else "."
        )

    def _take_plan(self, params: Mapping[str, str]) -> None:
        if not any(name in params for name in PLAN_PARAMS):
            return
        self.project_id = _positive_int(params.get("ProjectId"))
        self.subscription_plan_id = _positive_int(params.get("SubscriptionPlanId"))
        self.plan_duration_id = _positive_int(params.get("PlanDurationId"))
        self.is_trial = params.get("IsTrial", "").lower() == "true"

    def _clear_messages(self) -> None:
        self.email_error = self.password_error = self.notice = self.error = ""

    def _saved_email(self) -> str:
        return str(self._saved_login().get("EmailAddress", ""))

    def _forget_personal_data(self) -> None:
        """Logout, a session found ended, the state going to another connection: only the
        address this connection's own login cookie carries stays (the page fills it in
        again as it loads; the session check that follows each load must not undo that)."""
        if self.email != self._saved_email():
            self.email = ""

    @rx.event
    def choose_plan(self, project_id: int, plan_id: int, duration_id: int, is_trial: bool):
        """The pricing page's plan buttons: remember the plan, then open registration."""
        self.project_id, self.subscription_plan_id = project_id, plan_id
        self.plan_duration_id, self.is_trial = duration_id, is_trial
        return rx.redirect(
            plan_query(
                project_id=project_id,
                plan_id=plan_id,
                duration_id=duration_id,
                is_trial=is_trial,
            )
        )

    def _verify_after_login(self, digest: str) -> None:
        """The verification page's word: its link waits for the account owner's login.
        Private, as `_note_password_changed`: a public method of a state is an event any
        client may send, and a digest must never come from one."""
        self._verify_digest = digest

    async def _verify_waiting_link(self, customer_id: int) -> bool:
        """The link opened before this login, verified now if it is this account's."""
        digest, self._verify_digest = self._verify_digest, ""
        if not digest:
            return False
        verified = await call_service(
            accounts.verify_email_link,
            link_digest=digest,
            customer_id=customer_id,
            client_ip=self.router.session.client_ip,
        )
        return verified.ok

    def _note_password_changed(self) -> None:
        """The reset page's word that the password changed: the login page says so."""
        self._password_changed = True

    @rx.event
    async def load_page(self):
        """on_load of /log-in."""
        self._clear_messages()
        if self._password_changed:
            self._password_changed = False
            self.notice = msg.PASSWORD_CHANGED_SIGN_IN
        self.busy = False
        params = self.router.url.query_parameters
        self._take_plan(params)
        requested = params.get("next", "")
        self.return_to = requested if requested in routes.RETURN_AFTER_LOGIN else routes.HOME.path
        if self.subscription_plan_id is not None:
            self.mode = "register"
        if await self._is_signed_in():
            self.notice = msg.ALREADY_LOGGED_IN
            yield SessionState.redirect_later(self.return_to)
            return
        self.email = self._saved_email()

    @rx.event
    def show_mode(self, mode: str) -> None:
        self.mode = "register" if mode == "register" else "login"
        self._clear_messages()

    @rx.event
    async def log_in(self, form: dict[str, str]):
        self._clear_messages()
        raw = {"UserName": form.get("email"), "Password": form.get("password")}
        call = await FormCall.read(LoginInput, raw)
        errors = call.field_messages(("UserName", "Password"))
        self.email_error, self.password_error = errors["UserName"], errors["Password"]
        if not call.valid:
            return
        # The typed address is not stored: the uncontrolled field keeps it on screen.
        if await self._is_signed_in():
            self.notice = msg.ALREADY_LOGGED_IN
            yield SessionState.redirect_later(self.return_to)
            return
        # A login that worked leaves the button busy until the page moves on.
        call.busy(self, keep_after_success=True)
        yield
        outcome = await call.send(
            accounts.authenticate,
            client_ip=self.router.session.client_ip,
            via_ticket=True,
        )
        if outcome.ok:
            login = outcome.result()
            yield self._start_session(
                digest=login.session_digest,
                cookie_ticket=login.cookie_ticket,
                email=login.email_address,
            )
            self.notice, self.email = LOGGED_IN_MESSAGE, ""
            if await self._verify_waiting_link(login.customer_id):
                self.notice = f"{LOGGED_IN_MESSAGE} {EMAIL_VERIFIED}"
            yield SessionState.redirect_later(self.return_to)
            return
        self.error = outcome.message(refused=msg.LOGIN_FAILED, broken=msg.LOGIN_BROKEN)
