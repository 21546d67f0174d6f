"""/staff/customers and /staff/customers/<id> (customer support): thin adapters over
rcxsite.staff.support. Reading needs READ_CUSTOMERS, every action ACT_ON_CUSTOMERS;
the service checks again. The card never holds more than `CustomerCard` gives (no hash,
no token), and actions act on the customer the page has loaded, never on a client's id.
"""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx
from reflex.event import EventSpec

from rcxsite.content import routes
from rcxsite.core.permissions import Permission
from rcxsite.models import EMAIL_MAX
from rcxsite.staff import support
from rcxsite.staff.support_inputs import StaffDeleteCustomerInput
from rcxsite.state.service_calls import FormCall, call_service
from rcxsite.state.staff.access import acting, staff_event, staff_screen
from rcxsite.state.staff.display import NO_NAME, day_text, form_text, path_id, when


@staff_screen
class StaffCustomersState(rx.State):
    """The search form and its results (the newest customers before any search)."""

    rows: list[dict[str, str]] = []
    query: str = ""
    search_error: str = ""
    error: str = ""
    notice: str = ""
    # A confirmation for the next load (a deletion made on the customer's own page).
    _pending_notice: str = ""

    async def _show(self, query: str) -> None:
        outcome = await call_service(support.find_customers, actor=acting(), query=query)
        self.search_error = outcome.field_messages(("query",))["query"]
        if not outcome.ok:
            self.error = outcome.form_message()
            return
        self.error, self.query = "", query
        self.rows = [
            {
                "id": str(row.id),
                "path": routes.staff_customer_path(row.id),
                "name": row.name or NO_NAME,
                "email": row.email,
                "company": row.company or "—",
                "member_since": day_text(row.member_since),
                "locked": "Locked" if row.locked else "No",
            }
            for row in outcome.result()
        ]

    @staff_event(Permission.READ_CUSTOMERS)
    async def load(self) -> None:
        """Opening the page repeats the member's last search (a deleted customer is gone)."""
        self.notice, self._pending_notice = self._pending_notice, ""
        await self._show(self.query)

    @staff_event(Permission.READ_CUSTOMERS)
    async def search(self, form: dict[str, str]) -> None:
        """The search form: name, email or company contains the text."""
        self.notice = ""
        await self._show(form_text(form, "search", support.SEARCH_MAX + 1))


def _plan(card: support.CustomerCard) -> str:
    plan = card.plan
    if plan is None:
        return "No plan chosen"
    terms = ", ".join(
        term for term in (plan.duration, "free trial" if plan.is_trial else "") if term
    )
    return f"{plan.name} ({terms})" if terms else plan.name


def _facts(card: support.CustomerCard, zone: str) -> list[list[str]]:
    """`zone`: the member's, whose clock the times are on."""
    locked = f"Locked since {when(card.locked_at, zone)}" if card.locked else "Active"
    return [
        ["Name", card.name],
        ["Email", card.email],
        ["Mobile number", card.mobile_number or "—"],
        ["Company", card.company or "—"],
        ["Location", card.location or "—"],
        ["Plan", _plan(card)],
        ["Member since", day_text(card.member_since)],
        ["Account", locked],
        ["Signed-in sessions", str(card.live_sessions)],
        ["Last seen", when(card.last_seen, zone)],
    ]


NO_QUOTES = "No quote requests."
NOT_LINKED = "Email not verified, so their requests are not linked."


@staff_screen
class StaffCustomerState(rx.State):
    """One customer's card and the support actions on it."""

    customer_id: int = 0
    found: bool = False
    name: str = ""
    locked: bool = False
    facts: list[list[str]] = []
    # The customer's quote requests: path, sent, service, status.
    quotes: list[dict[str, str]] = []
    # What the card says when it lists no requests, and why.
    no_quotes: str = NO_QUOTES
    delete_error: str = ""
    error: str = ""
    notice: str = ""
    # Bumped on every reload: the delete form is keyed by it and empties after a change.
    revision: int = 0

    async def _reload(self) -> None:
        actor = acting()
        outcome = await call_service(
            support.customer_card, actor=actor, customer_id=self.customer_id
        )
        self.revision += 1
        if not outcome.ok:
            self.found, self.name, self.facts, self.quotes = False, "", [], []
            self.error = outcome.message()
            return
        card = outcome.result()
        self.found, self.name, self.locked = True, card.name or NO_NAME, card.locked
        self.facts = _facts(card, actor.time_zone)
        self.quotes = [
            {
                "path": routes.staff_quote_path(quote.id),
                "sent": day_text(quote.sent_on),
                "service": quote.service,
                "status": quote.status,
            }
            for quote in card.quotes
        ]
        self.no_quotes = NO_QUOTES if card.email_verified else NOT_LINKED

    @staff_event(Permission.READ_CUSTOMERS)
    async def load(self) -> None:
        """The customer the URL names."""
        self.error = self.notice = self.delete_error = ""
        self.customer_id = path_id(self.router.url.path)
        await self._reload()

    async def _act(self, call: Callable[..., str]) -> None:
        self.error = self.notice = self.delete_error = ""
        if not self.found:
            self.error = support.NO_CUSTOMER
            return
        outcome = await call_service(call, actor=acting(), customer_id=self.customer_id)
        await self._reload()
        if outcome.ok:
            self.notice = outcome.result()
        else:
            self.error = outcome.message()

    @staff_event(Permission.ACT_ON_CUSTOMERS)
    async def sign_out_everywhere(self) -> None:
        """A stolen phone or a shared computer: every session and reset link ends."""
        await self._act(support.sign_out_customer_everywhere)

    @staff_event(Permission.ACT_ON_CUSTOMERS)
    async def send_password_reset(self) -> None:
        await self._act(support.send_customer_password_reset)

    @staff_event(Permission.ACT_ON_CUSTOMERS)
    async def lock(self) -> None:
        await self._act(support.lock_customer)

    @staff_event(Permission.ACT_ON_CUSTOMERS)
    async def unlock(self) -> None:
        await self._act(support.unlock_customer)

    @staff_event(Permission.ACT_ON_CUSTOMERS)
    async def delete(self, form: dict[str, str]) -> EventSpec | None:
        """Delete once the customer's email is typed again; the list then says so."""
        self.error = self.notice = self.delete_error = ""
        if not self.found:
            self.error = support.NO_CUSTOMER
            return None
        call = await FormCall.read(
            StaffDeleteCustomerInput, {"email": form_text(form, "email", EMAIL_MAX + 1)}
        )
        outcome = await call.send(
            support.delete_customer, actor=acting(), customer_id=self.customer_id
        )
        if not outcome.ok:
            self.delete_error = outcome.field_messages(("email",))["email"]
            self.error = outcome.form_message()
            return None
        self.found, self.name, self.facts, self.quotes = False, "", [], []
        listing = await self.get_state(StaffCustomersState)
        listing._pending_notice = outcome.result()
        return rx.redirect(routes.STAFF_CUSTOMERS.path)
