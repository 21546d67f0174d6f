"""How the staff states turn service results into the strings a page shows, and how they
read ids and days sent by a browser (any text, since a client can send anything)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime

# A record without a name (a bot-trapped form may have none) still needs a link text.
NO_NAME = "(no name)"
# A database id as a URL or select spells it; far more digits than any table will reach.
ID_MAX = 12


def when(moment: datetime | None, *, never: str = "Never") -> str:
    """A stored moment (UTC) as staff read it; `never` when there is none."""
    return moment.strftime("%d %b %Y, %H:%M UTC") if moment else never


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
