"""The account mails: a reset link, an address verification link, and notices after a
password change or a deletion."""

from __future__ import annotations

from sqlmodel import Session

from rcxsite.core import paths
from rcxsite.mail.letters import Link
from rcxsite.mail.letters import send_letter as _send
from rcxsite.platform.settings import get_settings


def send_password_reset_mail(
    *,
    to: str,
    user_name: str,
    link: str,
    valid_minutes: int,
    session: Session | None = None,
) -> None:
    company = get_settings().company_name
    _send(
        to,
        f"Reset your {company} password",
        f"Hello {user_name},",
        f"Someone asked to reset the password of your {company} account.",
        (
            Link("Choose a new password", link, action=True),
            f" (the link is valid for {valid_minutes} minutes and works once).",
        ),
        "If you did not ask for this, ignore this mail; your password stays as it is.",
        session=session,
    )


def _days(days: int) -> str:
    return "1 day" if days == 1 else f"{days} days"


_NOT_YOURS = (
    "If you did not create an account, ignore this mail: nothing happens without your password."
)


def send_email_verification_mail(
    *,
    to: str,
    link: str,
    valid_days: int,
    session: Session | None = None,
) -> None:
    """The link that proves `to` is the customer's: until it is opened, My account shows
    no quote request sent from the address. No name: whoever registered the address, not
    yet proven, chose it, and it must not carry their words to someone else's inbox."""
    company = get_settings().company_name
    _send(
        to,
        f"Verify your {company} email address",
        "Hello,",
        f"Please confirm that {to} is the email address of your {company} account.",
        (
            "Log in to the account, then open this link: ",
            Link("Verify my email address", link, action=True),
            f" (the link is valid for {_days(valid_days)} and works once).",
        ),
        "Until the address is confirmed, My account does not show the quote requests sent from it.",
        _NOT_YOURS,
        session=session,
    )


def send_password_changed_mail(
    *,
    to: str,
    user_name: str,
    session: Session | None = None,
) -> None:
    settings = get_settings()
    company = settings.company_name
    _send(
        to,
        f"Your {company} password was changed",
        f"Hello {user_name},",
        f"The password of your {company} account was just changed, and every device signed "
        "in with the old password has been signed out.",
        (
            "If this was not you, ",
            Link("reset your password", settings.site_url + paths.FORGOT_PASSWORD),
            " right away.",
        ),
        session=session,
    )


def send_account_deleted_mail(
    *,
    to: str,
    user_name: str,
    session: Session | None = None,
) -> None:
    settings = get_settings()
    company = settings.company_name
    _send(
        to,
        f"Your {company} account was deleted",
        f"Hello {user_name},",
        f"Your {company} account has been deleted as you asked, together with its sign-ins. "
        "Quote requests you sent stay with our sales team so that they can answer them.",
        (
            "You are welcome back any time: ",
            Link("create a new account", settings.site_url + paths.LOG_IN),
            ".",
        ),
        session=session,
    )


def send_registration_attempt_mail(
    *,
    to: str,
    user_name: str,
    session: Session | None = None,
) -> None:
    """Someone registered with an address that has an account: its owner hears of it, and
    the registration form answers as for a new address (no account-existence oracle)."""
    settings = get_settings()
    company = settings.company_name
    _send(
        to,
        f"Someone tried to register with your {company} address",
        f"Hello {user_name},",
        f"Someone tried to register a new {company} account with your email address, which "
        "already has one.",
        (
            "If it was you, ",
            Link("log in", settings.site_url + paths.LOG_IN),
            " or, if you forgot your password, ",
            Link("reset it", settings.site_url + paths.FORGOT_PASSWORD),
            ".",
        ),
        "If it was not you, you can ignore this mail: nothing was changed.",
        session=session,
    )


def send_plan_chosen_mail(
    *,
    to: str,
    user_name: str,
    plan_sentence: str,
    after_trial: str,
    session: Session | None = None,
) -> None:
    """A plan chosen (at registration or on the pricing page): what it is, and with a
    trial, what happens when the trial ends."""
    settings = get_settings()
    _send(
        to,
        f"Your {settings.company_name} plan",
        f"Hello {user_name},",
        plan_sentence,
        *((after_trial,) if after_trial else ()),
        ("See it on ", Link("My account", settings.site_url + paths.ACCOUNT), "."),
        session=session,
    )


def send_trial_mail(
    *, to: str, user_name: str, plan: str, day: str, ended: bool, session: Session | None = None
) -> None:
    """A free trial's reminder before its end (`ended` False) or its word once over."""
    settings = get_settings()
    choose = Link("choose it without the trial", settings.site_url + paths.PRICING, action=True)
    if ended:
        subject = f"Your free trial of {plan} has ended"
        said = f"Your free trial of the {plan} plan ended on {day}."
        then = (
            "Your account and your requests stay as they are. To go on with the plan, ",
            choose,
            ".",
        )
    else:
        subject = f"Your free trial of {plan} ends on {day}"
        said = f"Your free trial of the {plan} plan ends on {day}."
        then = (
            "To keep the plan after that day, ",
            choose,
            "; our sales team then sends the invoice.",
        )
    _send(to, subject, f"Hello {user_name},", said, then, session=session)
