"""The accounts service's rate limits, counted by the shared `rcxsite.core.ratelimit`.

Every function counts one event (atomically, before the work it guards) and raises
`RateLimited` (a 429 `ServiceError`) when a limit is used up. Per-client limits key
IPv6 visitors by /64.
"""

from __future__ import annotations

from rcxsite.core.ratelimit import Limit, Reservation, client_key, hit, reserve
from rcxsite.platform.settings import get_settings


def reserve_login_attempt(*, account: str, client_ip: str) -> Reservation:
    """Take a slot of the login failure limit before the password is checked.

    Counting first is what keeps parallel guesses bounded: 30 simultaneous attempts can
    have at most `LOGIN_FAILURE_LIMIT` passwords checked. A successful login gives its
    slot back (`Reservation.give_back`): only failures count, so colleagues who log in
    correctly from one office address never lock each other out.
    """
    rule = get_settings().login_failure_limit
    return reserve(
        Limit(rule, "login:account", account),
        Limit(rule, "login:client", client_key(client_ip)),
    )


def count_reset_mail(*, account: str, client_ip: str) -> None:
    """One reset request, for a known address or not, so a 429 reveals no account."""
    settings = get_settings()
    hit(
        Limit(settings.reset_mail_client_limits, "reset-mail:client", client_key(client_ip)),
        Limit(settings.reset_mail_limits, "reset-mail:account", account),
    )


def count_reset_check(*, client_ip: str) -> None:
    hit(Limit(get_settings().reset_check_limit, "reset-check", client_key(client_ip)))


def count_reset_submission(*, client_ip: str) -> None:
    """A new-password submission: counted before the token lookup and the hashing."""
    hit(Limit(get_settings().reset_submit_limit, "reset-submit", client_key(client_ip)))


def count_registration(*, client_ip: str) -> None:
    hit(Limit(get_settings().registration_limit, "registration", client_key(client_ip)))


def count_account_change(*, customer_id: int, client_ip: str) -> None:
    """A signed-in customer's action on their account (details, export, sign out all)."""
    rule = get_settings().account_change_limit
    hit(
        Limit(rule, "account:customer", str(customer_id)),
        Limit(rule, "account:client", client_key(client_ip)),
    )


def count_verification_mail(*, customer_id: int, client_ip: str) -> None:
    """My account's "Send the link again": per customer, so a session cannot flood the
    mailbox, and per client address, so one client cannot mail many accounts."""
    settings = get_settings()
    hit(
        Limit(settings.verification_mail_limit, "verify-mail:customer", str(customer_id)),
        Limit(settings.verification_mail_client_limit, "verify-mail:client", client_key(client_ip)),
    )


def count_verification_link(*, client_ip: str) -> None:
    """An opened verification link, counted before the lookup: guessing is slow."""
    hit(Limit(get_settings().verification_link_limit, "verify-link", client_key(client_ip)))


def count_staff_reset_mail(*, account: str) -> None:
    """A reset mail staff send ("Send password reset"): it shares the account's reset-mail
    limit with the forgot-password form, so whoever asks, the customer's mailbox is not
    flooded; the staff member's own address is not limited (one office, many customers)."""
    hit(Limit(get_settings().reset_mail_limits, "reset-mail:account", account))
