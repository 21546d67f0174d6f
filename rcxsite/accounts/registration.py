"""Creating customer accounts."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from rcxsite.accounts import limits
from rcxsite.accounts.inputs import RegistrationInput
from rcxsite.accounts.passwords import hash_password
from rcxsite.accounts.results import RegisteredCustomer
from rcxsite.accounts.validation import email_key
from rcxsite.db import session_scope
from rcxsite.logs import security_event
from rcxsite.models import Customer
from rcxsite.service_errors import ServiceError

DUPLICATE_EMAIL = "An account with this email already exists."


def register(form: RegistrationInput, *, client_ip: str) -> RegisteredCustomer:
    limits.count_registration(client_ip=client_ip)  # only valid forms use up the budget
    key = email_key(form.email)
    # Cheap early answer for the common case; the unique index settles races below.
    with session_scope() as session:
        if session.exec(select(Customer.id).where(Customer.email_key == key)).first():
            security_event("registration", "duplicate", client_ip=client_ip, email=key)
            raise ServiceError(409, DUPLICATE_EMAIL)
    # The model's fields are the table's columns, but the password, which is only hashed.
    customer = Customer(
        **form.model_dump(exclude={"password"}),
        email_key=key,
        password_hash=hash_password(form.password),
    )
    try:
        with session_scope() as session:
            session.add(customer)
            session.flush()
            customer_id = customer.id
    except IntegrityError:
        security_event("registration", "duplicate", client_ip=client_ip, email=key)
        raise ServiceError(409, DUPLICATE_EMAIL) from None
    assert customer_id is not None
    security_event("registration", "success", client_ip=client_ip, email=key,
                   customer=customer_id)
    return RegisteredCustomer(id=customer_id)
