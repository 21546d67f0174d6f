"""Customer accounts: registration, login, login tokens and password resets.

Framework-free and synchronous (argon2 and the database block): the Reflex state calls
these through `asyncio.to_thread`, the REST API through FastAPI's thread pool. Every
refusal is an `AccountError` carrying the HTTP status and the message to show.
"""

from rcxsite.accounts.account import (
    AccountOverview,
    account_overview,
    change_password,
    delete_account,
    export_account,
    sign_out_everywhere,
    update_details,
)
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
    "AccountOverview",
    "LoginResult",
    "RegisteredCustomer",
    "ResetCheck",
    "account_overview",
    "authenticate",
    "change_password",
    "check_reset_link",
    "check_reset_token",
    "delete_account",
    "export_account",
    "log_out",
    "register",
    "request_password_reset",
    "reset_password",
    "reset_password_for_link",
    "reset_rate_limits",
    "sign_out_everywhere",
    "update_details",
    "validate_registration",
    "verify_login_token",
]
