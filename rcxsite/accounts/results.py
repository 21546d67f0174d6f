"""What the accounts service returns on success."""

from __future__ import annotations

from dataclasses import dataclass

# spec.md shows the server's message: it says where the next step is.
REGISTERED_MESSAGE = (
    "Registration successful! Check your email for the link that verifies your address."
)
LOGGED_IN_MESSAGE = "Logged in successfully!"


@dataclass(frozen=True, slots=True)
class RegisteredCustomer:
    # None when the address already had an account: the caller answers the same anyway.
    id: int | None
    message: str = REGISTERED_MESSAGE


@dataclass(frozen=True, slots=True)
class LoginResult:
    email_address: str
    user_name: str
    # The login token (JWT) for API clients; "" when the login went to a browser's cookie.
    token: str
    customer_id: int
    # SHA-256 of the session id: what the screens keep to find the session again.
    session_digest: str = ""
    # The screens' one-time ticket for the HttpOnly cookie (rcxsite/web/login_cookie.py).
    cookie_ticket: str = ""
    message: str = LOGGED_IN_MESSAGE


@dataclass(frozen=True, slots=True)
class PasswordChanged:
    """A password change ends every session, this one too, and starts a new one."""

    message: str
    token: str
    session_digest: str
    cookie_ticket: str = ""


@dataclass(frozen=True, slots=True)
class ResetCheck:
    is_valid: bool
    email: str = ""
