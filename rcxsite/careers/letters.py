"""The applicant's mails: the confirmation (what happens next, and the withdraw link) and
the kind note when an application does not go further, held two working days so the
hiring team can still undo the move."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from rcxsite.content.careers import HIRING_STEPS
from rcxsite.core import paths
from rcxsite.mail.letters import Link, send_letter
from rcxsite.models.careers import JobApplication
from rcxsite.platform.settings import get_settings


def withdraw_url(token: str) -> str:
    return get_settings().site_url.rstrip("/") + paths.withdraw_application_path(token)


def _subject(opening_title: str) -> str:
    return f"Your application to {get_settings().company_name}: {opening_title}"


def send_application_received(
    application: JobApplication, opening_title: str, *, token: str, session: Session
) -> None:
    settings = get_settings()
    steps = "; ".join(step[0].lower() + step[1:] for step in HIRING_STEPS)
    send_letter(
        application.email,
        _subject(opening_title),
        f"Hello {application.name},",
        f"Thank you for applying for {opening_title} at {settings.company_name}. We have "
        f"your application and your CV ({application.cv_name}).",
        "What happens next: the hiring team reads every application and replies within "
        f"five working days. If we go ahead, the steps are: {steps}.",
        "We keep your application for 12 months after its last change, then erase it.",
        (
            "Changed your mind? ",
            Link("Withdraw my application", withdraw_url(token), action=True),
            " erases your application and your CV at once.",
        ),
        session=session,
        reply_to=settings.careers_email,
    )


def send_already_applied(
    to: str, name: str, opening_title: str, *, message: str, session: Session
) -> None:
    """To the address an application named, when it had applied for the role within 30
    days: theirs stands (whoever sent the form is answered as for any application)."""
    send_letter(
        to,
        _subject(opening_title),
        f"Hello {name},",
        f"We received an application for {opening_title} from this address. {message}",
        "If you did not send it, you need not do anything.",
        session=session,
        reply_to=get_settings().careers_email,
    )


def send_rejection(
    application: JobApplication,
    opening_title: str,
    *,
    due_at: datetime,
    ref: str,
    session: Session,
) -> None:
    settings = get_settings()
    send_letter(
        application.email,
        _subject(opening_title),
        f"Hello {application.name},",
        f"Thank you for your interest in {opening_title} at {settings.company_name}, and "
        "for the time you gave your application.",
        "We have decided not to take your application further this time. This is never an "
        "easy decision, and it is not a judgement of you: we had to choose between many "
        "strong applications for one role.",
        "We would be glad to hear from you again for another opening. If you would like "
        "feedback, reply to this mail.",
        session=session,
        reply_to=settings.careers_email,
        due_at=due_at,
        ref=ref,
    )
