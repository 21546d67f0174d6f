"""How the staff states turn service results into the strings a page shows (times on the
member's own clock), and how they read ids and days sent by a browser (any text, since a
client can send anything)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping
from datetime import date, datetime
from zoneinfo import ZoneInfo

from rcxsite.booking.wording import zone_name

# A record without a name (a bot-trapped form may have none) still needs a link text.
NO_NAME = "(no name)"
# A database id as a URL or select spells it; far more digits than any table will reach.
ID_MAX = 12


def local(moment: datetime, zone: str) -> tuple[datetime, str]:
    """A stored moment on a member's clock, and that clock's zone name: their own
    (`StaffActor.time_zone`), the company's when it is "" or unknown."""
    name = zone_name(zone)
    return moment.astimezone(ZoneInfo(name)), name


def when(moment: datetime | None, zone: str, *, never: str = "Never") -> str:
    """A stored moment as a member reads it, on their own clock with its zone named
    ("26 Nov 2026, 14:05 (Europe/London)"); `never` when there is none. `zone`: the
    signed-in member's `time_zone`."""
    if moment is None:
        return never
    moment, name = local(moment, zone)
    return f"{moment:%d %b %Y, %H:%M} ({name})"


def day_text(value: date) -> str:
    return value.strftime("%d %b %Y")


def number_id(value: object) -> int:
    """A positive id from text a browser sent, 0 when it cannot be one."""
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > ID_MAX:
        return 0
    return int(text)


def path_id(path: str) -> int:
    """The id that ends a page path ("/staff/quotes/12" or "/staff/quotes/12/"), 0 if none;
    read from the URL of the event, so a reload or a shared link opens the same record."""
    return number_id(path.rstrip("/").rsplit("/", 1)[-1])


def day(value: object) -> date | None:
    """A date input's value ("YYYY-MM-DD"), None when empty or not a date."""
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def form_text(form: Mapping[str, object], name: str, limit: int) -> str:
    """One field of a submitted form as text, cut to `limit` characters (the service
    checks the real limits; this only keeps a forged huge value out of the state)."""
    value = form.get(name, "")
    return value[:limit] if isinstance(value, str) else ""


def mailto_href(email: str) -> str:
    """A `mailto:` link to an address a visitor typed, "" when it is none: every character
    but "@" is percent-encoded, so no text of theirs can add recipients or headers
    ("?bcc=") or leave the scheme."""
    email = email.strip()
    local_part, at, domain = email.partition("@")
    if not (local_part and at and domain) or "@" in domain:
        return ""
    if any(char.isspace() or not char.isprintable() for char in email):
        return ""
    return "mailto:" + urllib.parse.quote(email, safe="@")


def reply_href(email: str, *, subject: str, greeting: str) -> str:
    """`mailto_href` with a subject and the mail's first lines: each percent-encoded whole,
    so nothing the buyer typed (their name, the service) can add a header."""
    to = mailto_href(email)
    if not to:
        return ""
    query = urllib.parse.urlencode(
        {"subject": subject, "body": f"{greeting}\r\n\r\n"}, quote_via=urllib.parse.quote
    )
    return f"{to}?{query}"


# What the quote form accepts between a phone number's digits (leads/validation.py).
_PHONE_SEPARATORS = " ()-"
_DIGITS = "0123456789"


def tel_href(phone: str) -> str:
    """A `tel:` link to a number a visitor typed: its digits, and a leading "+" kept
    ("+44 (20) 7946-0000" is "tel:+442079460000"); "" for anything the quote form would
    not have taken as a number (no digit, or other characters than its separators)."""
    phone = phone.strip()
    plus = phone.startswith("+")
    rest = phone[1:] if plus else phone
    digits = "".join(char for char in rest if char in _DIGITS)
    if not digits or any(char not in _DIGITS + _PHONE_SEPARATORS for char in rest):
        return ""
    return "tel:" + ("+" if plus else "") + digits
