"""What visitors and clients send: the slots asked for, a booking, a change of one.

`BookingInput` is the quote form's fields (rcxsite.leads.validation.QuoteFields) with the
chosen start instead of a preferred date and time. Whether that start is free is the
service's decision (409), not these models'.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Annotated, Any, cast

from pydantic import Field, field_validator

from rcxsite.booking.rules import COMPANY_TIME_ZONE
from rcxsite.core.forms import (
    BLANK,
    FormInput,
    documented,
    iso_date,
    multiline_pattern,
    multiline_text,
    parsed_by,
    problem,
    text_only,
)
from rcxsite.core.time_zones import UTC_NAME, canonical_zone, place_zones
from rcxsite.leads.validation import QuoteContactFields, QuoteFields
from rcxsite.models.booking import CALL_KIND_MAX, PHONE, VIDEO
from rcxsite.models.staff import TIME_ZONE_MAX

START_REQUIRED = "Please choose a time for the call"
TIME_ZONE_UNKNOWN = "Unknown time zone"
DATE_INVALID = "Invalid date"
DAYS_MIN, DAYS_MAX, DAYS_DEFAULT = 1, 31, 7
DAYS_INVALID = f"days must be between {DAYS_MIN} and {DAYS_MAX}"
LINK_INVALID = "This link is not valid. Please use the link in your latest invitation."
TOKEN_MAX = 100
CALL_KINDS = (VIDEO, PHONE)
CALL_KIND_INVALID = "Please choose a video call or a phone call"
PHONE_FOR_CALL = "Please give the number we should call"
CALL_KIND = documented(
    required=False,
    enum=["", *CALL_KINDS],
    description='Where the call happens: "video" (the default; the link is in the '
    'invitation) or "phone" (then `phone` is required)',
)
# Why a visitor cancels, for the host: a sentence or two.
CANCEL_REASON_MAX = 500
REASON_TOO_LONG = f"Reason must be at most {CANCEL_REASON_MAX} characters"
# "2027-03-29T08:00:00.000000+05:30" and a little room for blanks around it.
START_MAX = 40
# Dates and starts outside these years are refused as invalid: none is bookable, and
# near year 1 or 9999 an offset would carry the time out of the calendar.
FIRST_YEAR, LAST_YEAR = 2000, 2999

# `days` as a query sends it: digits, blanks around them allowed.
DAYS_TEXT_MAX = 4
_DIGITS = re.compile(r"\s*[0-9]+\s*")
# A date, "T" (or a blank), a time and a zone: "Z" or an offset. No week or ordinal dates.
_ISO_START = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?"
    r"(Z|[+-][0-9]{2}:?[0-9]{2})",
    re.IGNORECASE,
)


# What the API's OpenAPI document says of the fields (rcxsite.core.forms.Documented), from the
# rules the validators below apply; the validators alone decide. As JSON Schema patterns
# (ECMA-262), within FIRST_YEAR to LAST_YEAR.
_YEAR = "2[0-9]{3}"  # FIRST_YEAR to LAST_YEAR
ISO_DATE_PATTERN = f"^{_YEAR}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$"
START_PATTERN = (
    ISO_DATE_PATTERN.removesuffix("$")
    + "T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,6})?"
    "(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$"
)
START = documented(
    format="date-time",
    pattern=START_PATTERN,
    maxLength=START_MAX,
    description="One of /Booking/Slots' starts: an ISO 8601 time with Z or an offset",
)
TIME_ZONE = documented(
    required=False,
    enum=["", *place_zones(), UTC_NAME],
    maxLength=TIME_ZONE_MAX,
    description="The visitor's IANA time zone, in which their mail shows the time; "
    "empty or left out: the company's. A legacy alias a browser may report "
    "(Asia/Calcutta) is accepted and read as its zone (Asia/Kolkata).",
)


def time_zone_name(value: object) -> str:
    """An IANA zone name, canonical ("Asia/Calcutta" is "Asia/Kolkata"); "" (or nothing)
    is the company's."""
    if value is None:
        return COMPANY_TIME_ZONE
    if not isinstance(value, str) or len(value) > TIME_ZONE_MAX:
        raise problem(TIME_ZONE_UNKNOWN)
    name = value.strip()
    if not name:
        return COMPANY_TIME_ZONE
    zone = canonical_zone(name)
    if zone is None:
        raise problem(TIME_ZONE_UNKNOWN)
    return zone


def utc_text(moment: datetime) -> str:
    """A start or end as clients send and read it back: UTC, ISO 8601, ending in Z (what
    `start_time` accepts)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def start_time(value: object) -> datetime:
    """An ISO 8601 time with "Z" or an offset, as an aware UTC datetime."""
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise problem(START_REQUIRED)
        return value.astimezone(UTC)
    if not isinstance(value, str) or len(value) > START_MAX:
        raise problem(START_REQUIRED)
    text = value.strip()
    if not _ISO_START.fullmatch(text):
        raise problem(START_REQUIRED)
    try:
        parsed = datetime.fromisoformat(text.upper().replace("Z", "+00:00"))
    except ValueError:
        raise problem(START_REQUIRED) from None
    if not FIRST_YEAR <= parsed.year <= LAST_YEAR:
        raise problem(START_REQUIRED)
    return parsed.astimezone(UTC)


class _ChosenStart(QuoteContactFields):
    """The call's start as the visitor chose it from the free slots, and their zone.

    Built on the contact fields so that in `BookingInput` these come between the contact
    fields and the message, as on the form (see rcxsite/leads/validation.py)."""

    # Parsed by its own validator, which also refuses the missing default.
    start: Annotated[datetime, START] = Field(cast(datetime, None))
    time_zone: Annotated[str, TIME_ZONE] = Field("", max_length=TIME_ZONE_MAX)

    _start = parsed_by(start_time, "start", before=True)

    _time_zone = parsed_by(time_zone_name, "time_zone", before=True)


class BookingInput(QuoteFields, _ChosenStart):
    """A visitor's request with the call booked at `start` (UTC); `time_zone` is theirs,
    in which their mail and the thank-you view show the time; `call_kind` is where the
    call happens: a video call (the default) or a phone call, which needs their number."""

    too_long_messages = {
        **QuoteFields.too_long_messages,
        "time_zone": TIME_ZONE_UNKNOWN,
        "call_kind": CALL_KIND_INVALID,
    }

    call_kind: Annotated[str, CALL_KIND] = Field(VIDEO, max_length=CALL_KIND_MAX)

    _call_kind_text_only = text_only("call_kind")

    @field_validator("call_kind")
    @classmethod
    def _call_kind(cls, value: str) -> str:
        value = value.strip() or VIDEO
        if value not in CALL_KINDS:
            raise problem(CALL_KIND_INVALID)
        return value

    @classmethod
    def read(
        cls, raw: Mapping[str, Any], **context: Any
    ) -> tuple[BookingInput | None, dict[str, str]]:
        form, errors = super().read(raw, **context)
        kind = raw.get("call_kind")
        phone = raw.get("phone")
        if (
            isinstance(kind, str)
            and kind.strip() == PHONE
            and not (isinstance(phone, str) and phone.strip())
        ):
            # A rule across two fields: a phone call needs the number it is made on.
            errors = {**errors, "phone": PHONE_FOR_CALL}
            ordered = {name: errors[name] for name in cls.field_names() if name in errors}
            return None, ordered
        return form, errors


class SlotQuery(FormInput):
    """The free times asked for: `days` days from `first_day` (None: today), both in
    `time_zone`."""

    too_long_messages = {"time_zone": TIME_ZONE_UNKNOWN}

    first_day: date | None = None
    days: int = DAYS_DEFAULT
    time_zone: str = Field("", max_length=TIME_ZONE_MAX)

    @field_validator("first_day", mode="before")
    @classmethod
    def _first_day(cls, value: Any) -> date | None:
        if value is None or (isinstance(value, date) and not isinstance(value, datetime)):
            return value
        chosen = iso_date(value, invalid=DATE_INVALID)
        if chosen is not None and not FIRST_YEAR <= chosen.year <= LAST_YEAR:
            raise problem(DATE_INVALID)
        return chosen

    @field_validator("days", mode="before")
    @classmethod
    def _days(cls, value: Any) -> int:
        if value is None:
            return DAYS_DEFAULT
        # ASCII digits only: int() refuses some of what isdigit() takes ("²").
        if isinstance(value, str) and len(value) <= DAYS_TEXT_MAX and _DIGITS.fullmatch(value):
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int):
            raise problem(DAYS_INVALID)
        if not DAYS_MIN <= value <= DAYS_MAX:
            raise problem(DAYS_INVALID)
        return value

    _time_zone = parsed_by(time_zone_name, "time_zone", before=True)


class LinkInput(FormInput):
    """The manage link's token; whether it names a call is the service's 404."""

    too_long_messages = {"token": LINK_INVALID}

    token: Annotated[str, documented(minLength=1)] = Field("", max_length=TOKEN_MAX)

    _token_text_only = text_only("token")

    @field_validator("token")
    @classmethod
    def _token(cls, value: str) -> str:
        return value.strip()


class CancelInput(LinkInput):
    """The manage link's token and, if the visitor gives one, why they cancel (the host
    reads it in their mail and on the request's history)."""

    too_long_messages = {"token": LINK_INVALID, "reason": REASON_TOO_LONG}

    reason: Annotated[
        str,
        documented(
            required=False,
            # A textarea's text (line breaks, no other invisible character), or blank.
            pattern=f"^(?:{multiline_pattern()[1:-1]}|{BLANK}*)$",
            description=f"Optional: why, for the host; at most {CANCEL_REASON_MAX} characters,"
            " line breaks allowed",
        ),
    ] = Field("", max_length=CANCEL_REASON_MAX)

    _reason_text_only = text_only("reason")

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str) -> str:
        return multiline_text(value, required="") if value.strip() else ""


class RescheduleInput(LinkInput):
    """The manage link's token and the new start (UTC)."""

    start: Annotated[datetime, START] = Field(cast(datetime, None))

    _start = parsed_by(start_time, "start", before=True)
