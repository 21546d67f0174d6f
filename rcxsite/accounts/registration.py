"""Creating customer accounts."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from rcxsite import mail
from rcxsite.accounts import limits
from rcxsite.accounts.inputs import RegistrationInput
from rcxsite.accounts.plans import new_trial_end
from rcxsite.accounts.results import RegisteredCustomer
from rcxsite.accounts.trials import plan_chosen
from rcxsite.accounts.verification import issue_verification_link
from rcxsite.core.attribution import Attribution, stamped
from rcxsite.core.passwords import hash_password
from rcxsite.core.validation import email_key
from rcxsite.models import Customer, utcnow
from rcxsite.platform.db import session_scope
from rcxsite.platform.logs import security_event


def register(
    form: RegistrationInput, *, client_ip: str, attribution: Attribution | None = None
) -> RegisteredCustomer:
    """Create the account and mail a link that verifies its address (rcxsite.accounts.
    verification). An address that already has one gets the same answer (so the form tells
    nobody which addresses are customers, ASVS 6.3.8), and its owner a mail."""
    limits.count_registration(client_ip=client_ip)  # only valid forms use up the budget
    key = email_key(form.email)
    # Hashed first whatever happens, so the answer takes as long for a known address.
    password_hash = hash_password(form.password)
    owner = account_owner(key)
    if owner is not None:
        return _already_registered(owner, key=key, client_ip=client_ip)
    # The model's fields are the table's columns, but the password, which is only hashed.
    now = utcnow()
    customer = stamped(
        Customer(
            **form.model_dump(exclude={"password"}),
            email_key=key,
            password_hash=password_hash,
            created_at=now,
            trial_ends_at=new_trial_end(form.subscription_plan_id, now) if form.is_trial else None,
        ),
        attribution,
    )
    try:
        with session_scope() as session:
            session.add(customer)
            session.flush()
            customer_id = customer.id
            issue_verification_link(session, customer)
            plan_chosen(session, customer, now=now)
    except IntegrityError:  # registered in parallel since the check above
        return _already_registered(account_owner(key), key=key, client_ip=client_ip)
    assert customer_id is not None
    security_event("registration", "success", client_ip=client_ip, email=key, customer=customer_id)
    return RegisteredCustomer(id=customer_id)


def account_owner(key: str) -> tuple[str, str] | None:
    """The email and name of the account an email key belongs to, if any."""
    with session_scope() as session:
        existing = session.exec(select(Customer).where(Customer.email_key == key)).first()
        return (existing.email, existing.user_name) if existing else None


def _already_registered(
    owner: tuple[str, str] | None, *, key: str, client_ip: str
) -> RegisteredCustomer:
    if owner is not None:
        email, user_name = owner
        mail.send_registration_attempt_mail(to=email, user_name=user_name)
    security_event("registration", "duplicate", client_ip=client_ip, email=key)
    return RegisteredCustomer(id=None)
