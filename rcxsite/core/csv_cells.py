"""CSV cells that spreadsheets show as text: every CSV download or export (quote requests,
the inbox, the audit log) escapes its cells with `defuse`."""

from __future__ import annotations

# Spreadsheets run a cell starting with one of these as a formula (CSV injection, OWASP).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def defuse(value: str) -> str:
    """A cell value that a spreadsheet shows as text rather than evaluates."""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value
