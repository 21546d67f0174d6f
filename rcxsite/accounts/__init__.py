"""Customer accounts: registration, address verification, login, login tokens, password
resets and My account.

Framework-free and synchronous (argon2 and the database block): the Reflex state calls
these through `asyncio.to_thread`, the REST API through FastAPI's thread pool. Each
function takes its validated input model (rcxsite.accounts.inputs) or ids the caller has
checked, with keyword-only context (`client_ip`, the signed-in `customer_id`), and returns
its result or raises `rcxsite.core.service_errors.ServiceError`.

Staff-facing customer support (search, the customer card, sign out everywhere, password
reset, lock, deletion) is the back office's, `rcxsite.staff.support`: it calls these
functions for the acting staff member, after checking their role.
"""

from rcxsite.accounts.login import authenticate, log_out, verify_login_token
from rcxsite.accounts.my_account import (
    AccountOverview,
    QuoteFormDetails,
    account_overview,
    change_password,
    delete_account,
    export_account,
    quote_form_details,
    sign_out_everywhere,
    update_details,
)
from rcxsite.accounts.plans import PlanOffer, choose_plan, current_plan, plan_offer
from rcxsite.accounts.registration import register
from rcxsite.accounts.reset import (
    check_reset_link,
    check_reset_token,
    request_password_reset,
    reset_password,
    reset_password_for_link,
)
from rcxsite.accounts.results import LoginResult, PasswordChanged, RegisteredCustomer, ResetCheck
from rcxsite.accounts.verification import (
    send_verification_again,
    verify_email,
    verify_email_link,
)

__all__ = [
    "AccountOverview",
    "LoginResult",
    "PasswordChanged",
    "PlanOffer",
    "QuoteFormDetails",
    "RegisteredCustomer",
    "ResetCheck",
    "account_overview",
    "authenticate",
    "change_password",
    "check_reset_link",
    "check_reset_token",
    "choose_plan",
    "current_plan",
    "delete_account",
    "export_account",
    "log_out",
    "plan_offer",
    "quote_form_details",
    "register",
    "request_password_reset",
    "reset_password",
    "reset_password_for_link",
    "send_verification_again",
    "sign_out_everywhere",
    "update_details",
    "verify_email",
    "verify_email_link",
    "verify_login_token",
]
