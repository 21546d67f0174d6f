"""The mail that tells sales about a new quote request, and the visitor-facing call wording."""

from __future__ import annotations

from datetime import date
from email.utils import formataddr
from urllib.parse import quote as url_quote

from sqlmodel import Session

from rcxsite.content.quote import (
    BUDGETS,
    SERVICE_CHOICES,
    TIMELINES,
    label_of,
)
from rcxsite.core import paths
from rcxsite.core.working_week import CALL_TIMEZONE_LABEL
from rcxsite.leads.validation import NO_CALL, QuoteFields, QuoteInput
from rcxsite.mail.letters import Link, Table, Verbatim, send_letter
from rcxsite.platform.settings import get_settings

QUOTE_MAILED = "quote_mailed"


def call_slot(call_date: date, call_time: str) -> str:
    """The slot as people read it: Tuesday, 5 January 2027 at 10:00 UK time."""
    # strftime names are English here: the site never switches the process locale.
    return f"{call_date:%A}, {call_date.day} {call_date:%B %Y} at {call_time} {CALL_TIMEZONE_LABEL}"


def staff_link(request_id: int) -> str:
    """The request's page in the staff inbox, where sales set its status and owner."""
    return get_settings().site_url + paths.staff_quote_path(request_id)


def quote_subject(quote: QuoteFields) -> str:
    return f"Quote request from {quote.name}, {quote.company}"


def _call(quote: QuoteFields) -> str:
    if isinstance(quote, QuoteInput):
        return call_slot(quote.call_date, quote.call_time)
    return NO_CALL


def _details(quote: QuoteFields) -> list[tuple[str, str]]:
    return [
        ("Name", quote.name),
        ("Email", quote.email),
        ("Company", quote.company),
        ("Phone", quote.phone or "not given"),
        ("Service", label_of(SERVICE_CHOICES, quote.service)),
        ("Budget", label_of(BUDGETS, quote.budget)),
        ("Timeline", label_of(TIMELINES, quote.timeline)),
        ("Call", _call(quote)),
    ]


def send_quote_mail(quote: QuoteFields, *, request_id: int, session: Session) -> None:
    """Queue the mail to `SALES_EMAIL` in the request's own transaction; once it is
    delivered, the request's `mailed_at` is set (QUOTE_MAILED)."""
    settings = get_settings()
    ask = "confirm the call with" if isinstance(quote, QuoteInput) else "reply by email to"
    send_letter(
        settings.sales_email,
        quote_subject(quote),
        f"New quote request #{request_id} from the {settings.company_name} website.",
        Table(_details(quote)),
        Verbatim("Message", quote.message),
        (
            f"Please {ask} {quote.name} at ",
            Link(quote.email, f"mailto:{url_quote(quote.email, safe='@')}"),
            " within one working day; that is what the website promised.",
        ),
        (Link("Open it in the staff inbox", staff_link(request_id), action=True),),
        reply_to=formataddr((quote.name, quote.email)),
        session=session,
        after=QUOTE_MAILED,
        after_ref=request_id,
    )
