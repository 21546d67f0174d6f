"""What the accounts service returns on success."""

from __future__ import annotations

from dataclasses import dataclass

REGISTERED_MESSAGE = "Registration successful!"
LOGGED_IN_MESSAGE = "Logged in successfully!"


@dataclass(frozen=True, slots=True)
class RegisteredCustomer:
    id: int
    message: str = REGISTERED_MESSAGE


@dataclass(frozen=True, slots=True)
class LoginResult:
    email_address: str
    user_name: str
    token: str
    customer_id: int
    message: str = LOGGED_IN_MESSAGE


@dataclass(frozen=True, slots=True)
class ResetCheck:
    is_valid: bool
    email: str = ""
