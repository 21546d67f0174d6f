"""Leads: the "Request a quote / book a call" form's backend, free of Reflex and HTTP.

`submit_quote` takes the raw form fields and always answers with a `QuoteResult`;
`python -m rcxsite.leads export --csv PATH` hands the stored requests to sales.
"""

from rcxsite.leads.export import write_csv
from rcxsite.leads.service import (
    QuoteResult,
    client_ip_hash,
    submit_quote,
    wait_for_quote_mail,
)
from rcxsite.leads.validation import FORM_FIELDS, QuoteInput

__all__ = [
    "FORM_FIELDS",
    "QuoteInput",
    "QuoteResult",
    "client_ip_hash",
    "submit_quote",
    "wait_for_quote_mail",
    "write_csv",
]
