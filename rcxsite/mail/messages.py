"""The account mails: a reset link, an address verification link, and notices after a
password change or a deletion."""

from __future__ import annotations

from html import escape

from sqlmodel import Session

from rcxsite.core import paths
from rcxsite.mail.outgoing import send_mail
from rcxsite.platform.settings import get_settings


def aligned(rows: list[tuple[str, str]]) -> str:
    """A mail's plain-text table: "Label:" padded so that the values line up, a line each."""
    width = max(len(label) for label, _ in rows) + 2
    return "".join(f"{label + ':':<{width}}{value}\n" for label, value in rows)


def html_page(*paragraphs: str) -> str:
    """A mail's HTML part: each paragraph (HTML, escaped by the caller) in a <p>."""
    body = "".join(f"<p>{paragraph}</p>" for paragraph in paragraphs)
    return f'<!doctype html><html><body style="font-family:sans-serif">{body}</body></html>'


def send_password_reset_mail(
    *,
    to: str,
    user_name: str,
    link: str,
    valid_minutes: int,
    session: Session | None = None,
) -> None:
    company = get_settings().company_name
    text = (
        f"Hello {user_name},\n\n"
        f"Someone asked to reset the password of your {company} account.\n"
        f"To choose a new password, open this link within {valid_minutes} minutes:\n\n"
        f"{link}\n\n"
        "The link works once. If you did not ask for this, ignore this mail; "
        "your password stays as it is.\n"
    )
    html = html_page(
        f"Hello {escape(user_name)},",
        f"Someone asked to reset the password of your {escape(company)} account.",
        f'<a href="{escape(link)}">Choose a new password</a> '
        f"(the link is valid for {valid_minutes} minutes and works once).",
        f"If the button does not work, copy this address into your browser:<br>{escape(link)}",
        "If you did not ask for this, ignore this mail; your password stays as it is.",
    )
    send_mail(
        session=session, to=to, subject=f"Reset your {company} password", text=text, html=html
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
    text = (
        "Hello,\n\n"
        f"Please confirm that {to} is the email address of your {company} account.\n"
        f"Log in to the account, then open this link within {_days(valid_days)}:\n\n"
        f"{link}\n\n"
        "The link works once. Until the address is confirmed, My account does not show the "
        "quote requests sent from it.\n"
        f"{_NOT_YOURS}\n"
    )
    html = html_page(
        "Hello,",
        f"Please confirm that {escape(to)} is the email address of your {escape(company)} account.",
        f'Log in to the account, then open this link: <a href="{escape(link)}">Verify my email '
        f"address</a> (the link is valid for {_days(valid_days)} and works once).",
        f"If the button does not work, copy this address into your browser:<br>{escape(link)}",
        "Until the address is confirmed, My account does not show the quote requests sent from it.",
        escape(_NOT_YOURS),
    )
    send_mail(
        session=session, to=to, subject=f"Verify your {company} email address", text=text, html=html
    )


def send_password_changed_mail(
    *,
    to: str,
    user_name: str,
    session: Session | None = None,
) -> None:
    settings = get_settings()
    company = settings.company_name
    help_link = settings.site_url + paths.FORGOT_PASSWORD
    text = (
        f"Hello {user_name},\n\n"
        f"The password of your {company} account was just changed, and every device "
        "signed in with the old password has been signed out.\n\n"
        "If this was not you, reset your password right away:\n"
        f"{help_link}\n"
    )
    html = html_page(
        f"Hello {escape(user_name)},",
        f"The password of your {escape(company)} account was just changed, and every "
        "device signed in with the old password has been signed out.",
        f'If this was not you, <a href="{escape(help_link)}">reset your password</a> right away.',
    )
    send_mail(
        session=session, to=to, subject=f"Your {company} password was changed", text=text, html=html
    )


def send_account_deleted_mail(
    *,
    to: str,
    user_name: str,
    session: Session | None = None,
) -> None:
    settings = get_settings()
    company = settings.company_name
    welcome = settings.site_url + paths.LOG_IN
    text = (
        f"Hello {user_name},\n\n"
        f"Your {company} account has been deleted as you asked, together with its sign-ins. "
        "Quote requests you sent stay with our sales team so that they can answer them.\n\n"
        f"You are welcome back any time: {welcome}\n"
    )
    html = html_page(
        f"Hello {escape(user_name)},",
        f"Your {escape(company)} account has been deleted as you asked, together with its "
        "sign-ins. Quote requests you sent stay with our sales team so that they can answer "
        "them.",
        f'You are welcome back any time: <a href="{escape(welcome)}">create a new account</a>.',
    )
    send_mail(
        session=session, to=to, subject=f"Your {company} account was deleted", text=text, html=html
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
    log_in = settings.site_url + paths.LOG_IN
    reset = settings.site_url + paths.FORGOT_PASSWORD
    text = (
        f"Hello {user_name},\n\n"
        f"Someone tried to register a new {company} account with your email address, "
        "which already has one.\n\n"
        f"If it was you, log in: {log_in}\n"
        f"or, if you forgot your password, reset it: {reset}\n\n"
        "If it was not you, you can ignore this mail: nothing was changed.\n"
    )
    html = html_page(
        f"Hello {escape(user_name)},",
        f"Someone tried to register a new {escape(company)} account with your email address, "
        "which already has one.",
        f'If it was you, <a href="{escape(log_in)}">log in</a> or, if you forgot your '
        f'password, <a href="{escape(reset)}">reset it</a>.',
        "If it was not you, you can ignore this mail: nothing was changed.",
    )
    send_mail(
        session=session,
        to=to,
        subject=f"Someone tried to register with your {company} address",
        text=text,
        html=html,
    )
