"""Customer accounts: registration, login, login tokens and password resets.

Framework-free and synchronous (argon2 and the database block): the Reflex state calls
these through `asyncio.to_thread`, the REST API through FastAPI's thread pool. Every
refusal is an `AccountError` carrying the HTTP status and the message to show.
"""

from rcxsite.accounts.errors import AccountError
from rcxsite.accounts.inputs import validate_registration
from rcxsite.accounts.login import authenticate, log_out, verify_login_token
from rcxsite.accounts.registration import register
from rcxsite.accounts.reset import (
    check_reset_link,
    check_reset_token,
    request_password_reset,
    reset_password,
    reset_password_for_link,
)
from rcxsite.accounts.results import LoginResult, RegisteredCustomer, ResetCheck
from rcxsite.ratelimit import reset_rate_limits

__all__ = [
    "AccountError",
    "LoginResult",
    "RegisteredCustomer",
    "ResetCheck",
    "authenticate",
    "check_reset_link",
    "check_reset_token",
    "log_out",
    "register",
    "request_password_reset",
    "reset_password",
    "reset_password_for_link",
    "reset_rate_limits",
    "validate_registration",
    "verify_login_token",
]
