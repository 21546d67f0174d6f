"""/staff/quotes/<id> (one quote request): a thin adapter over rcxsite.staff.inbox and
the sender's account summary (rcxsite.staff.lead_account).

The request is the one named by the URL of the load event; every change acts on the
request the page has loaded (what the member sees), never on an id the client sends, and
the one form of status, reason and owner changes only what the member changed from what
this state showed them. Reading needs READ_QUOTES, every change WORK_QUOTES: a support
member's change is refused by `staff_event` before the service is even called (and the
service checks again). Times are on the member's own clock, its zone named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import reflex as rx

from rcxsite.accounts.my_account import PlanChoice
from rcxsite.booking import outcomes
from rcxsite.content import routes
from rcxsite.core.permissions import Permission, StaffActor, allowed
from rcxsite.models.staff import NOTE_MAX
from rcxsite.models.types import LOST_REASON_MAX, STATUS_MAX
from rcxsite.platform.settings import get_settings
from rcxsite.staff import inbox, inbox_changes
from rcxsite.staff.inbox_inputs import OWNER_MAX, WorkInput
from rcxsite.staff.inbox_query import OWNER_ROLES
from rcxsite.staff.lead_account import LeadAccount, lead_account
from rcxsite.state.service_calls import FormCall, call_service
from rcxsite.state.staff.access import acting, staff_event, staff_screen
from rcxsite.state.staff.display import (
    NO_NAME,
    day_text,
    form_text,
    local,
    mailto_href,
    path_id,
    reply_href,
    tel_href,
    when,
)

QUOTE_FIELDS = ("status", "reason", "owner", "note")
WORK_FIELDS = ("status", "reason", "owner")
NO_PLAN = "No plan"
# One past each input's own limit, so an overlong value gets the input's message.
_LIMITS = {
    "status": STATUS_MAX + 1,
    "reason": LOST_REASON_MAX + 1,
    "owner": OWNER_MAX + 1,
    "note": NOTE_MAX + 1,
}


@dataclass(frozen=True, slots=True)
class _PageData:
    quote: inbox.QuoteDetail
    owners: list[inbox.MemberChoice]
    account: LeadAccount | None


# A request sent through the API, or by a visitor who asked not to be counted.
NOT_RECORDED = "Not recorded"


def _page_data(*, actor: StaffActor | None, quote_id: int) -> _PageData:
    """The request (its service checks READ_QUOTES first), who may own it and the
    sender's account summary."""
    detail = inbox.quote_detail(actor=actor, quote_id=quote_id)
    account = lead_account(actor=actor, quote_id=quote_id)
    return _PageData(quote=detail, owners=inbox.request_owners(actor=actor), account=account)


def _mark_call(*, actor: StaffActor | None, quote_id: int, outcome: str) -> str:
    return outcomes.mark_call(actor=actor, quote_request_id=quote_id, outcome=outcome)


def _facts(quote: inbox.QuoteDetail, zone: str) -> list[list[str]]:
    """[term, value, link] rows ("" link: plain text); `zone`: the member's."""
    status = quote.status_label + (f": {quote.lost_reason}" if quote.lost_reason else "")
    # A booked call has a panel of its own; a time only preferred is one of the facts.
    slot = (
        []
        if quote.call
        else [
            ["Call slot (company time)", quote.call_company, ""],
            ["Call slot (your time)", quote.call_member, ""],
        ]
    )
    return [
        ["Received", when(quote.received, zone), ""],
        ["Name", quote.name, ""],
        ["Email", quote.email, mailto_href(quote.email)],
        ["Company", quote.company or "—", ""],
        ["Phone", quote.phone or "—", tel_href(quote.phone)],
        ["Service", quote.service_label or quote.service, ""],
        ["Budget", quote.budget_label or quote.budget or "—", ""],
        ["Timeline", quote.timeline_label or quote.timeline or "—", ""],
        *slot,
        ["Message", quote.message or "—", ""],
        ["Current status", status, ""],
        ["Current owner", quote.owner_name or "Unassigned", ""],
        ["Mailed to sales", when(quote.mailed_at, zone, never="Not mailed"), ""],
        ["Source", quote.source or NOT_RECORDED, ""],
        ["Campaign", quote.campaign or "—", ""],
        ["Landing page", quote.landing_page or "—", ""],
    ]


def plan_text(plan: PlanChoice | None) -> str:
    """ "Growth (yearly, free trial)", "No plan" when none was chosen."""
    if plan is None:
        return NO_PLAN
    terms = ", ".join(
        term for term in (plan.duration, "free trial" if plan.is_trial else "") if term
    )
    return f"{plan.name} ({terms})" if terms else plan.name


def _account_facts(account: LeadAccount | None, zone: str) -> list[list[str]]:
    """The sender's account, read-only; none without a verified account."""
    if account is None:
        return []
    since, _ = local(account.customer_since, zone)
    return [
        ["Name", account.name or NO_NAME],
        ["Plan", plan_text(account.plan)],
        ["Customer since", day_text(since)],
    ]


def _call_facts(call: inbox.CallDetail | None) -> list[list[str]]:
    if call is None:
        return []
    return [
        ["When (your time)", call.when],
        ["Their time", call.visitor_time],
        ["Host", call.host_name],
        ["Status", call.status_label],
    ]


def _change_text(change: inbox.ChangeView) -> str:
    """ "Status: New → Contacted"; "Call: Booked: Monday 1 March..." when it had no value."""
    field = change.field.capitalize()
    if not change.old_value:
        return f"{field}: {change.new_value}"
    return f"{field}: {change.old_value} → {change.new_value}"


@staff_screen
class StaffQuoteState(rx.State):
    """One quote request: its fields, notes and history, and the member's changes."""

    quote_id: int = 0
    found: bool = False
    name: str = ""
    # [term, value, link] rows: the email and phone are `mailto:` and `tel:` links.
    facts: list[list[str]] = []
    # "Reply": a mail to the buyer with its subject and greeting ("" without an address).
    reply: str = ""
    # What the work form shows, and so what its Save compares the member's choice with.
    status: str = ""
    lost_reason: str = ""
    owner_id: str = ""
    # The member may own requests and this one is not theirs yet: "Assign to me" applies.
    assignable: bool = False
    # The sender's verified account ([term, value] rows; none: "No account"), and its
    # staff page for members who may open the customers pages ("" for the others).
    account: list[list[str]] = []
    customer_path: str = ""
    owners: list[dict[str, str]] = []
    notes: list[dict[str, str]] = []
    history: list[dict[str, str]] = []
    # The booked call's panel ([term, value] rows; none without a booking), and whether
    # its time has come so that "Held" and "No-show" apply.
    call: list[list[str]] = []
    call_markable: bool = False
    field_errors: dict[str, str] = dict.fromkeys(QUOTE_FIELDS, "")
    error: str = ""
    notice: str = ""
    # The work form is keyed by `revision`, bumped when the values it shows change
    # (another request, or a change saved here or elsewhere); the note form by
    # `note_revision`, bumped when a note was added. A reload that changes nothing (the
    # tab reconnecting to another worker) keeps what the member is typing.
    revision: int = 0
    note_revision: int = 0

    def _shown(self) -> tuple[object, ...]:
        return (self.quote_id, self.found, self.status, self.lost_reason, self.owner_id)

    def _seen(self) -> inbox_changes.Seen:
        """What the work form showed the member."""
        return inbox_changes.Seen(
            status=self.status,
            lost_reason=self.lost_reason,
            owner_id=int(self.owner_id) if self.owner_id else None,
        )

    async def _reload(self) -> None:
        shown = self._shown()
        await self._read()
        if self._shown() != shown:
            self.revision += 1

    async def _read(self) -> None:
        actor = acting()
        outcome = await call_service(_page_data, actor=actor, quote_id=self.quote_id)
        if not outcome.ok:
            self.found, self.facts, self.notes, self.history = False, [], [], []
            self.call, self.call_markable = [], False
            self.account, self.customer_path, self.assignable = [], "", False
            self.error = outcome.message()
            return
        data = outcome.result()
        quote, zone = data.quote, actor.time_zone
        self.found, self.name, self.facts = True, quote.name or NO_NAME, _facts(quote, zone)
        self.reply = reply_href(
            quote.email,
            subject=f"Your quote request to {get_settings().company_name}: "
            + (quote.service_label or quote.service),
            greeting=f"Hello {quote.name}," if quote.name else "Hello,",
        )
        self.call = _call_facts(quote.call)
        self.call_markable = quote.call is not None and quote.call.can_mark
        self.status, self.lost_reason = quote.status, quote.lost_reason
        self.owner_id = str(quote.owner_id) if quote.owner_id else ""
        # Only the screen's guess, to offer the button; the service decides.
        self.assignable = (
            allowed(actor, Permission.WORK_QUOTES)
            and actor.role in OWNER_ROLES
            and quote.owner_id != actor.member_id
        )
        self.account = _account_facts(data.account, zone)
        self.customer_path = (
            routes.staff_customer_path(quote.customer_id)
            if quote.customer_id and allowed(actor, Permission.READ_CUSTOMERS)
            else ""
        )
        self.owners = [{"id": str(m.id), "name": m.name} for m in data.owners]
        if self.owner_id and all(m["id"] != self.owner_id for m in self.owners):
            # A member who may no longer own requests still shows as the current owner.
            self.owners.append({"id": self.owner_id, "name": quote.owner_name})
        self.notes = [
            {"author": note.author_name, "time": when(note.created_at, zone), "body": note.body}
            for note in quote.notes
        ]
        self.history = [
            {
                "who": change.actor_name,
                "when": when(change.created_at, zone),
                "what": _change_text(change),
            }
            for change in quote.history
        ]

    @staff_event(Permission.READ_QUOTES)
    async def load(self) -> None:
        """The request the URL names (a reload or a shared link opens the same one)."""
        self.error = self.notice = ""
        self.field_errors = dict.fromkeys(QUOTE_FIELDS, "")
        self.quote_id = path_id(self.router.url.path)
        await self._reload()

    async def _change(self, service: Callable[..., str], call: FormCall[Any] | None = None) -> None:
        """Run one change on the loaded request (with the form `call` read, if any);
        confirm it or show why it was refused."""
        self.error = self.notice = ""
        self.field_errors = dict.fromkeys(QUOTE_FIELDS, "")
        if not self.found:
            self.error = inbox.NO_QUOTE
            return
        context = {"actor": acting(), "quote_id": self.quote_id}
        outcome = await (
            call.send(service, **context) if call is not None else call_service(service, **context)
        )
        if not outcome.ok:
            self.field_errors = outcome.field_messages(QUOTE_FIELDS)
            self.error = outcome.form_message()
            return
        await self._reload()
        self.notice = outcome.result()

    @staff_event(Permission.WORK_QUOTES)
    async def save_work(self, form: dict[str, str]) -> None:
        """The work form: status (for Lost, the reason) and owner, one Save; what the
        member left as it was shown stays as it is now."""
        fields = {name: form_text(form, name, _LIMITS[name]) for name in WORK_FIELDS}
        await self._change(
            partial(inbox_changes.save_work, seen=self._seen()),
            await FormCall.read(WorkInput, fields),
        )

    @staff_event(Permission.WORK_QUOTES)
    async def assign_to_me(self) -> None:
        await self._change(inbox_changes.assign_to_me)

    @staff_event(Permission.WORK_QUOTES)
    async def add_note(self, form: dict[str, str]) -> None:
        fields = {"note": form_text(form, "note", _LIMITS["note"])}
        await self._change(inbox.add_note, await FormCall.read(inbox.NoteInput, fields))
        if not self.error and not any(self.field_errors.values()):
            self.note_revision += 1  # the note is saved: the box empties

    @staff_event(Permission.WORK_QUOTES)
    async def log_contact(self, kind: str) -> None:
        """ "Log a call" / "Log an email": a contact made outside the site, in the history."""
        await self._change(
            inbox.log_contact, await FormCall.read(inbox.ContactInput, {"kind": str(kind)})
        )

    @staff_event(Permission.WORK_QUOTES)
    async def mark_spam(self) -> None:
        await self._change(inbox.mark_spam)

    @staff_event(Permission.WORK_QUOTES)
    async def not_spam(self) -> None:
        """Rescue a request the bot trap (or a member) put in the spam folder."""
        await self._change(inbox.not_spam)

    @staff_event(Permission.WORK_QUOTES)
    async def mark_call_held(self) -> None:
        """After the call's start: it took place."""
        await self._change(partial(_mark_call, outcome=outcomes.HELD))

    @staff_event(Permission.WORK_QUOTES)
    async def mark_call_no_show(self) -> None:
        """After the call's start: the visitor did not come."""
        await self._change(partial(_mark_call, outcome=outcomes.NO_SHOW))
