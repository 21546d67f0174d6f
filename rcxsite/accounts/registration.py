"""Creating customer accounts."""

from __future__ import annotations

import logging

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from rcxsite.accounts import limits
from rcxsite.accounts.errors import AccountError
from rcxsite.accounts.inputs import RegistrationInput
from rcxsite.accounts.passwords import hash_password
from rcxsite.accounts.results import RegisteredCustomer
from rcxsite.accounts.validation import email_key
from rcxsite.db import session_scope
from rcxsite.models import Customer

logger = logging.getLogger(__name__)

DUPLICATE_EMAIL = "An account with this email already exists."


def register(
    *,
    user_name: str,
    email: str,
    mobile_number: str,
    password: str,
    company_name: str,
    location: str,
    project_id: int | None = None,
    subscription_plan_id: int | None = None,
    plan_duration_id: int | None = None,
    is_trial: bool = False,
    client_ip: str,
) -> RegisteredCustomer:
    form = RegistrationInput.parse(
        {
            "user_name": user_name,
            "email": email,
            "mobile_number": mobile_number,
            "password": password,
            "company_name": company_name,
            "location": location,
            "project_id": project_id,
            "subscription_plan_id": subscription_plan_id,
            "plan_duration_id": plan_duration_id,
            "is_trial": is_trial,
        }
    )
    limits.count_registration(client_ip=client_ip)  # only valid forms use up the budget
    key = email_key(form.email)
    # Cheap early answer for the common case; the unique index settles races below.
    with session_scope() as session:
        if session.exec(select(Customer.id).where(Customer.email_key == key)).first():
            raise AccountError(409, DUPLICATE_EMAIL)
    customer = Customer(
        user_name=form.user_name,
        email=form.email,
        email_key=key,
        mobile_number=form.mobile_number,
        password_hash=hash_password(form.password),
        company_name=form.company_name,
        location=form.location,
        project_id=form.project_id,
        subscription_plan_id=form.subscription_plan_id,
        plan_duration_id=form.plan_duration_id,
        is_trial=form.is_trial,
    )
    try:
        with session_scope() as session:
            session.add(customer)
            session.flush()
            customer_id = customer.id
    except IntegrityError:
        raise AccountError(409, DUPLICATE_EMAIL) from None
    assert customer_id is not None
    logger.info("Registered customer %d", customer_id)
    return RegisteredCustomer(id=customer_id)
