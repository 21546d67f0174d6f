"""My account: what a signed-in customer can see and change of their own account.

Every function takes the `customer_id` of a session the caller has already checked (the
screens by the cookie's digest, the API by the bearer token), never an id from input.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, func
from sqlmodel import Session, col, select

from rcxsite import mail
from rcxsite.accounts import limits
from rcxsite.accounts.inputs import (
    CURRENT_PASSWORD_WRONG,
    PASSWORD_WRONG,
    ChangePasswordInput,
    DeleteAccountInput,
    ProfileInput,
)

# Re-exported: the back office reads a customer's plan from here.
from rcxsite.accounts.plans import PlanChoice as PlanChoice
from rcxsite.accounts.plans import plan_of as plan_of
from rcxsite.accounts.results import PasswordChanged
from rcxsite.accounts.sessions import (
    end_all_access,
    revoke_all_sessions,
    start_session,
    void_reset_links,
)
from rcxsite.content.quote import BUDGETS, SERVICE_CHOICES, TIMELINES, label_of
from rcxsite.core.passwords import hash_password, verify_password
from rcxsite.core.service_errors import ServiceError
from rcxsite.leads.statuses import SPAM, customer_label
from rcxsite.models import (
    Customer,
    EmailVerificationToken,
    LoginSession,
    PasswordResetToken,
    QuoteRequest,
    StaffMember,
    utcnow,
)
from rcxsite.platform.db import session_scope
from rcxsite.platform.logs import security_event
from rcxsite.platform.settings import get_settings

logger = logging.getLogger(__name__)

SIGNED_OUT = "Please log in to continue."
DETAILS_SAVED = "Your details have been saved."
PASSWORD_CHANGED = "Your password has been changed. Other devices have been signed out."
SIGNED_OUT_EVERYWHERE = "You have been signed out everywhere."
ACCOUNT_DELETED = "Your account has been deleted."
# Who answers a quote request nobody in sales owns yet.
SALES_TEAM = "Our sales team"


@dataclass(frozen=True, slots=True)
class QuoteSummary:
    sent_on: date
    service: str
    # As the customer reads it (rcxsite.leads.statuses.customer_label): sales' judgement
    # (spam, lost) never shows.
    status: str
    # Who at RCX answers it: the salesperson who owns it, or the sales team (`SALES_TEAM`
    # and the sales address) while nobody does.
    contact_name: str
    contact_email: str


_CONTACT_DETAILS = ("user_name", "email", "mobile_number", "company_name", "location")


@dataclass(frozen=True, slots=True)
class AccountOverview:
    user_name: str
    email: str
    mobile_number: str
    company_name: str
    location: str
    member_since: datetime
    # Whether the customer opened a link mailed to `email`; until then `quotes` is empty.
    email_verified: bool
    plan: PlanChoice | None
    quotes: tuple[QuoteSummary, ...]


def _customer(session: Session, customer_id: int) -> Customer:
    customer = session.get(Customer, customer_id)
    if customer is None:  # deleted while a session was still being checked
        raise ServiceError(401, SIGNED_OUT)
    return customer


def quotes_of(session: Session, customer: Customer) -> list[QuoteRequest]:
    """The customer's quote requests, newest first. Quote requests are sent by email
    address, signed in or not; they are the customer's when the address is the account's
    and the customer proved it is theirs (rcxsite.accounts.verification): anyone can
    register someone else's address. None before that."""
    if customer.email_verified_at is None:
        return []
    return list(
        session.exec(
            select(QuoteRequest)
            .where(func.lower(QuoteRequest.email) == customer.email_key)
            .order_by(col(QuoteRequest.created_at).desc())
        )
    )


def _owners(session: Session, quotes: list[QuoteRequest]) -> dict[int, StaffMember]:
    """The members who own `quotes` and still work here, by id (one query for all)."""
    ids = {quote.owner_id for quote in quotes if quote.owner_id is not None}
    if not ids:
        return {}
    members = session.exec(
        select(StaffMember).where(
            col(StaffMember.id).in_(ids), col(StaffMember.disabled_at).is_(None)
        )
    )
    return {member.id: member for member in members if member.id is not None}


def _contact(quote: QuoteRequest, owners: dict[int, StaffMember]) -> tuple[str, str]:
    owner = owners.get(quote.owner_id) if quote.owner_id is not None else None
    # A request sales judged spam shows as received, answered by the team like a new one.
    if owner is None or quote.status == SPAM:
        return SALES_TEAM, get_settings().sales_email
    return owner.name, owner.email


def _quote_summaries(session: Session, quotes: list[QuoteRequest]) -> tuple[QuoteSummary, ...]:
    owners = _owners(session, quotes)
    summaries = []
    for quote in quotes:
        contact_name, contact_email = _contact(quote, owners)
        summaries.append(
            QuoteSummary(
                sent_on=quote.created_at.date(),
                service=label_of(SERVICE_CHOICES, quote.service) or quote.service,
                status=customer_label(quote.status),
                contact_name=contact_name,
                contact_email=contact_email,
            )
        )
    return tuple(summaries)


def account_overview(*, customer_id: int) -> AccountOverview:
    with session_scope() as session:
        customer = _customer(session, customer_id)
        return AccountOverview(
            **{name: getattr(customer, name) for name in _CONTACT_DETAILS},
            member_since=customer.created_at,
            email_verified=customer.email_verified_at is not None,
            plan=plan_of(customer),
            quotes=_quote_summaries(session, quotes_of(session, customer)),
        )


@dataclass(frozen=True, slots=True)
class QuoteFormDetails:
    """What the quote form starts with for a signed-in customer (each field still theirs
    to change)."""

    name: str
    email: str
    company: str
    phone: str


def quote_form_details(*, customer_id: int) -> QuoteFormDetails:
    with session_scope() as session:
        customer = _customer(session, customer_id)
        return QuoteFormDetails(
            name=customer.user_name,
            email=customer.email,
            company=customer.company_name,
            phone=customer.mobile_number,
        )


def update_details(details: ProfileInput, *, customer_id: int, client_ip: str) -> str:
    limits.count_account_change(customer_id=customer_id, client_ip=client_ip)
    with session_scope() as session:
        customer = _customer(session, customer_id)
        for name, value in details.model_dump().items():
            setattr(customer, name, value)
        session.add(customer)
    logger.info("Customer %d updated their details", customer_id)
    return DETAILS_SAVED


_WRONG_PASSWORD = {"CurrentPassword": CURRENT_PASSWORD_WRONG, "Password": PASSWORD_WRONG}


def _check_password(
    customer_id: int, password: str, client_ip: str, *, field: str
) -> tuple[str, str]:
    """Refuses a wrong password (counted like a login attempt, so a stolen session cannot
    guess it); the account's email and name."""
    with session_scope() as session:
        customer = _customer(session, customer_id)
        key, stored, email, name = (
            customer.email_key,
            customer.password_hash,
            customer.email,
            customer.user_name,
        )
    attempt = limits.reserve_login_attempt(account=key, client_ip=client_ip)
    matches, _ = verify_password(password, stored)
    if matches:
        attempt.give_back()
    else:
        security_event(
            "password_check", "failure", client_ip=client_ip, email=key, customer=customer_id
        )
        message = _WRONG_PASSWORD[field]
        raise ServiceError(400, message, fields={field: message})
    return email, name


def change_password(
    form: ChangePasswordInput, *, customer_id: int, client_ip: str, via_ticket: bool = False
) -> PasswordChanged:
    """Sets the new password, ends every session (this one too: whoever held its token
    with the old password must not keep it) and starts a new one for the caller, whose
    token (or, `via_ticket`, cookie ticket) the result carries."""
    email, name = _check_password(
        customer_id, form.current_password, client_ip, field="CurrentPassword"
    )
    new_hash = hash_password(form.new_password)
    now = utcnow()
    with session_scope() as session:
        customer = _customer(session, customer_id)
        customer.password_hash = new_hash
        session.add(customer)
        revoke_all_sessions(session, customer_id, now)
        void_reset_links(session, customer_id, now)
        started = start_session(session, customer_id, via_ticket=via_ticket)
        mail.send_password_changed_mail(to=email, user_name=name, session=session)
    security_event(
        "password_change", "success", client_ip=client_ip, email=email, customer=customer_id
    )
    return PasswordChanged(
        message=PASSWORD_CHANGED,
        token=started.token,
        session_digest=started.digest,
        cookie_ticket=started.cookie_ticket,
    )


def sign_out_everywhere(*, customer_id: int, client_ip: str) -> str:
    limits.count_account_change(customer_id=customer_id, client_ip=client_ip)
    now = utcnow()
    with session_scope() as session:
        end_all_access(session, customer_id, now)
    security_event("sign_out_everywhere", "success", client_ip=client_ip, customer=customer_id)
    return SIGNED_OUT_EVERYWHERE


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


# What features above this one keep about a customer, each its own part of the export
# (booking: their calls). A part gets the export's session and the customer, and is
# registered where it is defined (`@export_part("calls")`), as job kinds are.
ExportPart = Callable[[Session, Customer], list[dict[str, Any]]]
EXPORT_PARTS: dict[str, ExportPart] = {}


def export_part(name: str) -> Callable[[ExportPart], ExportPart]:
    def register(part: ExportPart) -> ExportPart:
        EXPORT_PARTS[name] = part
        return part

    return register


def _request_for_export(quote: QuoteRequest, summary: QuoteSummary) -> dict[str, Any]:
    # The request's own words too: quotes_of hands out only the requests of an address
    # the customer proved is theirs.
    return {
        "sentOn": summary.sent_on.isoformat(),
        "sentAt": _when(quote.created_at),
        "service": summary.service,
        "status": summary.status,
        "name": quote.name,
        "email": quote.email,
        "company": quote.company,
        "phone": quote.phone,
        "budget": label_of(BUDGETS, quote.budget) or quote.budget,
        "timeline": label_of(TIMELINES, quote.timeline) or quote.timeline,
        "message": quote.message,
        "preferredCallDate": quote.call_date.isoformat() if quote.call_date else None,
        "preferredCallTime": quote.call_time or None,
    }


def export_account(*, customer_id: int, client_ip: str) -> dict[str, Any]:
    """Everything kept about the customer (GDPR access), as JSON-ready data: never the
    password hash or a token."""
    limits.count_account_change(customer_id=customer_id, client_ip=client_ip)
    with session_scope() as session:
        customer = _customer(session, customer_id)
        plan = plan_of(customer)
        quotes = quotes_of(session, customer)
        sessions = session.exec(
            select(LoginSession)
            .where(LoginSession.customer_id == customer_id)
            .order_by(col(LoginSession.created_at))
        )
        return {
            "account": {
                "userName": customer.user_name,
                "emailAddress": customer.email,
                "mobileNumber": customer.mobile_number,
                "companyName": customer.company_name,
                "location": customer.location,
                "memberSince": _when(customer.created_at),
                "emailVerifiedAt": _when(customer.email_verified_at),
                "projectId": customer.project_id,
                "subscriptionPlanId": customer.subscription_plan_id,
                "planDurationId": customer.plan_duration_id,
                "isTrial": customer.is_trial,
                "trialEndsAt": _when(customer.trial_ends_at),
                "plan": plan.name if plan else None,
            },
            "quoteRequests": [
                _request_for_export(quote, summary)
                for quote, summary in zip(quotes, _quote_summaries(session, quotes), strict=True)
            ],
            **{name: part(session, customer) for name, part in EXPORT_PARTS.items()},
            "sessions": [
                {
                    "createdAt": _when(row.created_at),
                    "lastSeenAt": _when(row.last_seen_at),
                    "endedAt": _when(row.revoked_at),
                }
                for row in sessions
            ],
        }


@dataclass(frozen=True, slots=True)
class ErasedAccount:
    """An account removed in a transaction (its mail queued in it); `announce` once that
    transaction commits."""

    customer_id: int
    email: str
    user_name: str

    def announce(self, *, client_ip: str) -> None:
        """The security log line."""
        security_event(
            "account_deleted",
            "success",
            client_ip=client_ip,
            email=self.email,
            customer=self.customer_id,
        )


def erase_account(session: Session, customer: Customer) -> ErasedAccount:
    """Within the caller's transaction: the customer, their sessions, reset and
    verification links (GDPR erasure). Quote requests stay for sales, who answer them by
    their own address; no row points to the account. The customer's own deletion and
    staff's do exactly this."""
    customer_id = customer.id
    assert customer_id is not None
    erased = ErasedAccount(
        customer_id=customer_id, email=customer.email, user_name=customer.user_name
    )
    session.exec(delete(LoginSession).where(col(LoginSession.customer_id) == customer_id))
    session.exec(
        delete(PasswordResetToken).where(col(PasswordResetToken.customer_id) == customer_id)
    )
    session.exec(
        delete(EmailVerificationToken).where(col(EmailVerificationToken.customer_id) == customer_id)
    )
    session.exec(delete(Customer).where(col(Customer.id) == customer_id))
    mail.send_account_deleted_mail(to=customer.email, user_name=customer.user_name, session=session)
    return erased


def delete_account(form: DeleteAccountInput, *, customer_id: int, client_ip: str) -> str:
    """The customer's own deletion, once their password checks out (`erase_account`)."""
    _check_password(customer_id, form.password, client_ip, field="Password")
    with session_scope() as session:
        erased = erase_account(session, _customer(session, customer_id))
    erased.announce(client_ip=client_ip)
    return ACCOUNT_DELETED
