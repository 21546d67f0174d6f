"""Creating customer accounts."""

from __future__ import annotations

import logging

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from rcxsite.accounts.errors import AccountError
from rcxsite.accounts.passwords import hash_password
from rcxsite.accounts.results import RegisteredCustomer
from rcxsite.accounts.validation import (
    email_key,
    normalize_email,
    require_valid,
    text,
    validate_registration,
)
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
) -> RegisteredCustomer:
    require_valid(
        validate_registration(
            user_name=user_name,
            email=email,
            mobile_number=mobile_number,
            password=password,
            company_name=company_name,
            location=location,
            project_id=project_id,
            subscription_plan_id=subscription_plan_id,
            plan_duration_id=plan_duration_id,
            is_trial=is_trial,
        )
    )
    normalized = normalize_email(text(email))
    assert normalized is not None  # validate_registration has checked it
    key = email_key(normalized)
    # Cheap early answer for the common case; the unique index settles races below.
    with session_scope() as session:
        if session.exec(select(Customer.id).where(Customer.email_key == key)).first():
            raise AccountError(409, DUPLICATE_EMAIL)
    customer = Customer(
        user_name=text(user_name),
        email=normalized,
        email_key=key,
        mobile_number=text(mobile_number),
        password_hash=hash_password(password),
        company_name=text(company_name),
        location=text(location),
        project_id=project_id,
        subscription_plan_id=subscription_plan_id,
        plan_duration_id=plan_duration_id,
        is_trial=is_trial,
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
