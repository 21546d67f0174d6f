"""Customer support in the staff back office: find a customer, see their card, act on it.

Built on rcxsite.accounts, whose functions it calls, but staff-facing: every function takes
the acting member (`StaffActor`, resolved by the caller from a live staff session) and
checks the role's permission first (rcxsite.core.permissions), so a screen that forgot to
check still refuses. Reading needs READ_CUSTOMERS, acting ACT_ON_CUSTOMERS. Every action
writes one audit entry in the same transaction as its change, and does what the
customer's own action does (sign out everywhere, reset mail, deletion) through the same
functions, so a customer helped by staff ends up exactly where they would have by
themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import ColumnElement, func, or_
from sqlmodel import Session, col, select

from rcxsite.accounts import limits
from rcxsite.accounts.my_account import PlanChoice, erase_account, plan_of, quotes_of
from rcxsite.accounts.reset import issue_reset_link
from rcxsite.accounts.sessions import end_all_access, session_activity
from rcxsite.content.quote import SERVICE_CHOICES, label_of
from rcxsite.core import audit
from rcxsite.core.forms import INVALID_CHARACTERS, has_forbidden_characters, too_long
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.leads.statuses import STATUS_LABELS
from rcxsite.models import Customer, utcnow
from rcxsite.platform.db import session_scope
from rcxsite.staff.support_inputs import CONFIRM_EMAIL, StaffDeleteCustomerInput

SEARCH_MAX = 200
PAGE_SIZE = 50
NO_CUSTOMER = "This customer does not exist."
RESET_WHILE_LOCKED = (
    "This account is locked, so no reset link can be sent. Unlock it first if the "
    "customer should choose a new password."
)
ALREADY_LOCKED = "This account is already locked."
NOT_LOCKED = "This account is not locked."


@dataclass(frozen=True, slots=True)
class CustomerRow:
    """One line of the search results."""

    id: int
    name: str
    email: str
    company: str
    member_since: datetime
    locked: bool


@dataclass(frozen=True, slots=True)
class CustomerQuote:
    """One of the customer's quote requests, with the status as sales read it."""

    id: int
    sent_on: date
    service: str
    status: str


@dataclass(frozen=True, slots=True)
class CustomerCard:
    """Everything support sees of one customer: never the password hash or a token."""

    id: int
    name: str
    email: str
    mobile_number: str
    company: str
    location: str
    plan: PlanChoice | None
    member_since: datetime
    locked: bool
    locked_at: datetime | None
    # Requests are linked to the account only once the address is proved the customer's
    # (rcxsite.accounts.my_account.quotes_of).
    email_verified: bool
    # Sessions that would be let in right now (rcxsite.accounts.sessions), and the last
    # use of any session, ended or not.
    live_sessions: int
    last_seen: datetime | None
    quotes: tuple[CustomerQuote, ...]


def _search_query(query: str) -> str:
    """The query as searched: stripped, bounded and free of characters no name holds."""
    query = query.strip()
    if len(query) > SEARCH_MAX:
        message = too_long(SEARCH_MAX)
        raise ServiceError(422, message, fields={"query": message})
    if has_forbidden_characters(query):
        raise ServiceError(422, INVALID_CHARACTERS, fields={"query": INVALID_CHARACTERS})
    return query


def _contains(query: str) -> ColumnElement[bool]:
    """Any of name, email and company contains `query`, ignoring case; `%` and `_` typed
    by staff match themselves, not any text."""
    escaped = query.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    pattern = f"%{escaped}%"
    return or_(
        func.lower(Customer.user_name).like(pattern, escape="\\"),
        col(Customer.email_key).like(pattern, escape="\\"),
        func.lower(Customer.company_name).like(pattern, escape="\\"),
    )


def _row(customer: Customer) -> CustomerRow:
    assert customer.id is not None
    return CustomerRow(
        id=customer.id,
        name=customer.user_name,
        email=customer.email,
        company=customer.company_name,
        member_since=customer.created_at,
        locked=customer.locked_at is not None,
    )


def find_customers(
    *, actor: StaffActor | None, query: str, limit: int = PAGE_SIZE
) -> list[CustomerRow]:
    """Customers whose name, email or company contains `query` (any case), newest first;
    an empty query lists the newest. At most `limit` (1 to `PAGE_SIZE`) rows."""
    require(actor, Permission.READ_CUSTOMERS)
    query = _search_query(query)
    statement = select(Customer)
    if query:
        statement = statement.where(_contains(query))
    statement = statement.order_by(col(Customer.created_at).desc(), col(Customer.id).desc())
    with session_scope() as session:
        found = session.exec(statement.limit(max(1, min(limit, PAGE_SIZE)))).all()
        return [_row(customer) for customer in found]


def _customer(session: Session, customer_id: int, *, for_update: bool = False) -> Customer:
    customer = session.get(Customer, customer_id, with_for_update=for_update)
    if customer is None:
        raise ServiceError(404, NO_CUSTOMER)
    return customer


def customer_card(*, actor: StaffActor | None, customer_id: int) -> CustomerCard:
    """One customer as support sees them (see `CustomerCard`)."""
    require(actor, Permission.READ_CUSTOMERS)
    with session_scope() as session:
        customer = _customer(session, customer_id)
        activity = session_activity(session, customer_id)
        quotes = tuple(
            CustomerQuote(
                id=quote.id,
                sent_on=quote.created_at.date(),
                service=label_of(SERVICE_CHOICES, quote.service) or quote.service,
                status=STATUS_LABELS.get(quote.status, quote.status),
            )
            for quote in quotes_of(session, customer)
            if quote.id is not None
        )
        return CustomerCard(
            id=customer_id,
            name=customer.user_name,
            email=customer.email,
            mobile_number=customer.mobile_number,
            company=customer.company_name,
            location=customer.location,
            plan=plan_of(customer),
            member_since=customer.created_at,
            locked=customer.locked_at is not None,
            locked_at=customer.locked_at,
            email_verified=customer.email_verified_at is not None,
            live_sessions=activity.live,
            last_seen=activity.last_seen,
            quotes=quotes,
        )


def _target(customer: Customer) -> str:
    """How the audit log names a customer: the id, and the address people search by."""
    return f"customer #{customer.id} ({customer.email})"


def sign_out_customer_everywhere(*, actor: StaffActor | None, customer_id: int) -> str:
    """As the customer's own "Sign out everywhere": every session ends and every open
    reset link stops working (a stolen phone, a shared computer)."""
    actor = require(actor, Permission.ACT_ON_CUSTOMERS)
    with session_scope() as session:
        customer = _customer(session, customer_id, for_update=True)
        end_all_access(session, customer_id, utcnow())
        audit.record(
            session, action="customer_signed_out_everywhere", actor=actor, target=_target(customer)
        )
        return f"{customer.email} has been signed out everywhere."


def send_customer_password_reset(*, actor: StaffActor | None, customer_id: int) -> str:
    """The forgot-password form's mail, sent for a customer who calls: the link goes to
    the account's own address, so staff never learn or set a password. A locked account
    gets none (409): unlock it first."""
    actor = require(actor, Permission.ACT_ON_CUSTOMERS)
    with session_scope() as session:
        customer = _customer(session, customer_id, for_update=True)
        if customer.locked_at is not None:
            raise ServiceError(409, RESET_WHILE_LOCKED)
        limits.count_staff_reset_mail(account=customer.email_key)
        issue_reset_link(session, customer)
        audit.record(
            session, action="customer_password_reset_sent", actor=actor, target=_target(customer)
        )
        address = customer.email
    return f"A password reset link has been sent to {address}."


def lock_customer(*, actor: StaffActor | None, customer_id: int) -> str:
    """The customer can neither log in nor reset the password until unlocked (they are
    told to contact the company, rcxsite.accounts.locking); their sessions end and their
    open reset links stop working now."""
    actor = require(actor, Permission.ACT_ON_CUSTOMERS)
    # Serialised with the login's session start (rcxsite.accounts.login): a login either
    # commits its session before the lock, which then ends it, or sees the lock.
    with session_scope(for_update=True) as session:
        customer = _customer(session, customer_id, for_update=True)
        if customer.locked_at is not None:
            raise ServiceError(409, ALREADY_LOCKED)
        now = utcnow()
        customer.locked_at = now
        session.add(customer)
        end_all_access(session, customer_id, now)
        audit.record(session, action="customer_locked", actor=actor, target=_target(customer))
        return f"{customer.email} is locked and has been signed out everywhere."


def unlock_customer(*, actor: StaffActor | None, customer_id: int) -> str:
    """Login and password resets work again; sessions and links ended by the lock stay
    ended (the customer logs in afresh)."""
    actor = require(actor, Permission.ACT_ON_CUSTOMERS)
    with session_scope() as session:
        customer = _customer(session, customer_id, for_update=True)
        if customer.locked_at is None:
            raise ServiceError(409, NOT_LOCKED)
        customer.locked_at = None
        session.add(customer)
        audit.record(session, action="customer_unlocked", actor=actor, target=_target(customer))
        return f"{customer.email} is unlocked and can log in again."


def delete_customer(
    form: StaffDeleteCustomerInput, *, actor: StaffActor | None, customer_id: int
) -> str:
    """As the customer's own deletion (rcxsite.accounts.my_account.erase_account: the
    account, its sessions and reset links go, quote requests stay, the customer is
    mailed), once the typed address is the customer's (any case)."""
    actor = require(actor, Permission.ACT_ON_CUSTOMERS)
    with session_scope() as session:
        customer = _customer(session, customer_id, for_update=True)
        if form.email.strip().lower() != customer.email.lower():
            raise ServiceError(400, CONFIRM_EMAIL, fields={"email": CONFIRM_EMAIL})
        audit.record(session, action="customer_deleted", actor=actor, target=_target(customer))
        erased = erase_account(session, customer)
    erased.announce(client_ip=actor.client_address)
    return f"The account of {erased.email} has been deleted."
