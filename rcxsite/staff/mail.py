"""The staff back office's mail: an invitation to set up a staff sign-in."""

from __future__ import annotations

from sqlmodel import Session

from rcxsite.mail.letters import Link, send_letter
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
    send_letter(
        to,
        f"Your invitation to the {company} staff area",
        f"Hello {name},",
        f"You are invited to the {company} staff area.",
        (
            Link("Set up your staff sign-in", link, action=True),
            f" (the link is valid for {valid_hours} hours and works once): choose a password "
            "and set up your authenticator app.",
        ),
        "If you did not expect this, ignore this mail.",
        session=session,
    )
