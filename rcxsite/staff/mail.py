"""The staff back office's mail: an invitation to set up a staff sign-in."""

from __future__ import annotations

from html import escape

from sqlmodel import Session

from rcxsite.mail.messages import html_page
from rcxsite.mail.outgoing import send_mail
from rcxsite.platform.settings import get_settings


def send_staff_invitation_mail(
    *,
    to: str,
    name: str,
    link: str,
    valid_hours: int,
    session: Session | None = None,
) -> None:
    company = get_settings().company_name
    text = (
        f"Hello {name},\n\n"
        f"You are invited to the {company} staff area. Open this link within {valid_hours} "
        "hours to choose a password and set up your authenticator app:\n\n"
        f"{link}\n\n"
        "The link works once. If you did not expect this, ignore this mail.\n"
    )
    html = html_page(
        f"Hello {escape(name)},",
        f"You are invited to the {escape(company)} staff area.",
        f'<a href="{escape(link)}">Set up your staff sign-in</a> (the link is valid for '
        f"{valid_hours} hours and works once).",
        f"If the link does not work, copy this address into your browser:<br>{escape(link)}",
    )
    send_mail(
        session=session,
        to=to,
        subject=f"Your invitation to the {company} staff area",
        text=text,
        html=html,
    )
