"""Leads: the "Request a quote / book a call" form's backend, free of Reflex and HTTP.

`submit_quote` takes a validated `QuoteInput` and returns a `QuoteReceipt` or raises
`ServiceError`; `python -m rcxsite.leads export --csv PATH` hands the stored requests to
sales. The staff inbox (list, one request, status/owner/notes/spam, filtered export) is
the back office's, `rcxsite.staff.inbox`, which builds on this package.
"""

from rcxsite.core.forms import trap_filled
from rcxsite.leads.export import write_csv
from rcxsite.leads.service import (
    QuoteReceipt,
    note_trapped_quote,
    submit_quote,
)
from rcxsite.leads.validation import (
    FOLLOW_UP_FIELD,
    FORM_FIELDS,
    NO_CALL,
    WITHOUT_CALL,
    QuoteFields,
    QuoteInput,
    QuoteWithoutCallInput,
    wants_no_call,
)

__all__ = [
    "FOLLOW_UP_FIELD",
    "FORM_FIELDS",
    "NO_CALL",
    "WITHOUT_CALL",
    "QuoteFields",
    "QuoteInput",
    "QuoteReceipt",
    "QuoteWithoutCallInput",
    "note_trapped_quote",
    "submit_quote",
    "trap_filled",
    "wants_no_call",
    "write_csv",
]
