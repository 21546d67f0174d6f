"""The choices of the "Request a quote / book a call" form.

Each list is a tuple of (value, label) pairs: the value is what the form sends and the
database keeps, the label what visitors and sales read. Renaming a label is safe at any
time; changing a value leaves older requests with a value no longer offered (exports then
show the raw value).
"""

from __future__ import annotations

from rcxsite.content.services import SERVICES
from rcxsite.core.working_week import CALL_TIMEZONE as CALL_TIMEZONE
from rcxsite.core.working_week import CALL_TIMEZONE_LABEL as CALL_TIMEZONE_LABEL

Choice = tuple[str, str]

OTHER_SERVICE: Choice = ("other", "Something else")

BUDGETS: tuple[Choice, ...] = (
    ("under-25k", "Under £25,000"),
    ("25k-75k", "£25,000 – £75,000"),
    ("75k-150k", "£75,000 – £150,000"),
    ("150k-plus", "More than £150,000"),
    ("not-sure", "Not sure yet"),
)

TIMELINES: tuple[Choice, ...] = (
    ("asap", "As soon as possible"),
    ("1-3-months", "In 1–3 months"),
    ("3-6-months", "In 3–6 months"),
    ("flexible", "Flexible / no fixed date"),
)

CALL_TIMES: tuple[Choice, ...] = tuple(
    (f"{hour:02d}:{minute:02d}", f"{hour:02d}:{minute:02d}")
    for hour in range(9, 18)
    for minute in (0, 30)
    if (hour, minute) != (17, 30)
)
# Visitors may book from tomorrow up to this many days ahead.
CALL_BOOKING_DAYS = 90


def service_choices() -> tuple[Choice, ...]:
    """Every service on the site, in menu order, then "Something else"."""
    return (*((service.slug, service.name) for service in SERVICES), OTHER_SERVICE)


SERVICE_CHOICES: tuple[Choice, ...] = service_choices()


def label_of(choices: tuple[Choice, ...], value: str) -> str:
    """The label shown for `value`, or the value itself once it is no longer offered."""
    return dict(choices).get(value, value)
