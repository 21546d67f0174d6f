"""A quote request's status as sales work it, and as the customer sees it."""

from __future__ import annotations

from typing import Literal, get_args

QuoteStatus = Literal["new", "contacted", "qualified", "won", "lost", "spam"]
QUOTE_STATUSES: tuple[QuoteStatus, ...] = get_args(QuoteStatus)
# The statuses code decides on (the rest are only shown and chosen).
NEW: QuoteStatus = "new"
WON: QuoteStatus = "won"
SPAM: QuoteStatus = "spam"
# What sales read in the inbox (filters, selects, history).
STATUS_LABELS: dict[str, str] = {
    "new": "New",
    "contacted": "Contacted",
    "qualified": "Qualified",
    "won": "Won",
    "lost": "Lost",
    "spam": "Spam",
}
# What the customer reads in My account: nothing of sales' judgement (spam, lost) shows.
CUSTOMER_LABELS: dict[str, str] = {
    "new": "Received",
    "spam": "Received",
    "contacted": "In progress",
    "qualified": "In progress",
    "won": "Accepted",
    "lost": "Closed",
}


def customer_label(status: str) -> str:
    return CUSTOMER_LABELS.get(status, "Received")
