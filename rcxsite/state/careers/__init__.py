"""The careers screens' states: the openings' filters, the application form and the
withdraw page."""


def one_of(value: object, allowed: tuple[str, ...]) -> str:
    """A value a client sent for a filter, if it is one the page offers; else "" (all)."""
    return value if isinstance(value, str) and value in allowed else ""
