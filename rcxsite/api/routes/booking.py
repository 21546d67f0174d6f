"""/api/v1/Booking/*: free call times, booking one, and the manage link's reschedule and
cancel. Each route only translates between HTTP and `rcxsite.booking`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request, status
from pydantic import BaseModel

from rcxsite import booking, leads
from rcxsite.api.client import client_address
from rcxsite.api.envelope import Envelope
from rcxsite.api.routes import error_responses
from rcxsite.booking.inputs import (
    DAYS_DEFAULT,
    DAYS_MAX,
    DAYS_MIN,
    DAYS_TEXT_MAX,
    ISO_DATE_PATTERN,
    TIME_ZONE,
)
from rcxsite.core.forms import BLANK, HONEYPOT_FIELD
from rcxsite.core.service_errors import ServiceError
from rcxsite.leads.validation import PHONE_GIVEN_PATTERN
from rcxsite.models.booking import PHONE

router = APIRouter(prefix="/Booking", tags=["Booking"])

_CONFLICT = {409: "The time is no longer free: ask /Booking/Slots again and choose another"}
_GONE = {
    404: "The token is not a manage link's",
    409: "The new time is no longer free",
    410: "The call was cancelled or has taken place: it can no longer be changed",
}
_MOVES = {
    429: "Too many moves of this call in an hour, or changes from this client address "
    "(Retry-After says when to try again); or the call has been moved as often as it can "
    "be (no Retry-After: waiting does not help, cancelling still does)",
}
_CANCELS = {
    429: "Too many changes from this client address; Retry-After says when to try again",
}


# The query's and the body's names of the fields whose API name is not the model's.
_SLOT_NAMES = {"first_day": "from", "time_zone": "timeZone"}
_BOOKING_NAMES = {"time_zone": "timeZone", "call_kind": "callKind"}
NOT_TEXT = "Must be text"
# What /Booking/Slots' parameters accept (rcxsite.booking.SlotQuery decides): the
# OpenAPI document says it up front, the validators answer with their own messages.
_FIRST_DAY = {
    "anyOf": [{"format": "date", "pattern": ISO_DATE_PATTERN}, {"maxLength": 0}],
    "description": "A date (yyyy-mm-dd) in `timeZone`; empty or left out: today there",
}
_DAYS = {
    "pattern": f"^(?:{BLANK}*0*(?:[1-9]|[12][0-9]|3[01]){BLANK}*)?$",
    "maxLength": DAYS_TEXT_MAX,
    "description": f"How many days, {DAYS_MIN} to {DAYS_MAX}",
}


def _renamed(error: ServiceError, names: Mapping[str, str]) -> ServiceError:
    """`error` with its field messages keyed by the API's names."""
    fields = {names.get(name, name): message for name, message in error.fields.items()}
    return ServiceError(error.status, error.message, error.retry_after, fields=fields)


def _booking_schema() -> dict[str, Any]:
    """`BookingInput`'s JSON schema as the API takes it (`timeZone`), or any object whose
    bot trap is filled: the route answers that 201, whatever else it holds, as the form
    answers it."""
    form = booking.BookingInput.model_json_schema(by_alias=True)
    form["properties"] = {
        _BOOKING_NAMES.get(name, name): rules for name, rules in form["properties"].items()
    }
    form["required"] = [_BOOKING_NAMES.get(name, name) for name in form.get("required", ())]
    # A phone call needs the number it is made on.
    form["if"] = {"properties": {"callKind": {"const": PHONE}}, "required": ["callKind"]}
    form["then"] = {
        "properties": {"phone": {"pattern": PHONE_GIVEN_PATTERN}},
        "required": ["phone"],
    }
    written = leads.QuoteWithoutCallInput.model_json_schema(by_alias=True)
    written["title"] = "A quote request without a call"
    written["description"] = "Answered 201 with the request's id; no call is booked."
    written["properties"]["callKind"] = {"const": leads.WITHOUT_CALL}
    written["required"] = [*written.get("required", ()), "callKind"]
    trapped = {
        "title": "Caught by the bot trap",
        "description": "Answered 201 without data; nothing is booked or mailed.",
        "type": "object",
        "required": [HONEYPOT_FIELD],
        "properties": {HONEYPOT_FIELD: {"type": "string", "not": {"pattern": f"^{BLANK}*$"}}},
    }
    return {"anyOf": [form, written, trapped]}


class SlotData(BaseModel):
    start: str
    end: str


class SlotsData(BaseModel):
    timeZone: str
    callMinutes: int
    slots: list[SlotData]


class HostData(BaseModel):
    name: str


class RequestData(BaseModel):
    """A quote request sent without a call."""

    id: int
    callKind: Literal["none"] = "none"


class BookedData(BaseModel):
    """A booked call; `callKind` "video" or "phone"."""

    id: int
    start: str
    end: str
    timeZone: str
    host: HostData
    callKind: str
    # A video call's link ("" for a phone call).
    meetingUrl: str

    @classmethod
    def of(cls, receipt: booking.BookingReceipt) -> BookedData:
        return cls(
            id=receipt.booking_id,
            start=booking.utc_text(receipt.start),
            end=booking.utc_text(receipt.end),
            timeZone=receipt.time_zone,
            host=HostData(name=receipt.host_name),
            callKind=receipt.call_kind,
            meetingUrl=receipt.meeting_url,
        )


@router.get(
    "/Slots",
    summary="Free call times",
    description="Times at which at least one member who takes calls is free for a call "
    "and its buffer, from `from` (a date in `timeZone`, default today there) for `days` "
    "days (1-31, default 7); starts and ends in UTC.",
    responses=error_responses(),
)
def slots(
    first_day: Annotated[str, Query(alias="from", json_schema_extra=_FIRST_DAY)] = "",
    days: Annotated[str, Query(json_schema_extra=_DAYS)] = str(DAYS_DEFAULT),
    time_zone: Annotated[
        str, Query(alias="timeZone", json_schema_extra=dict(TIME_ZONE.keywords))
    ] = "",
) -> Envelope[SlotsData]:
    raw = {"first_day": first_day, "days": days or DAYS_DEFAULT, "time_zone": time_zone}
    try:
        query = booking.SlotQuery.parse(raw)
    except ServiceError as error:
        raise _renamed(error, _SLOT_NAMES) from None
    found = booking.free_slots(query)
    return Envelope(
        status=200,
        message="OK",
        data=SlotsData(
            timeZone=found.time_zone,
            callMinutes=found.call_minutes,
            slots=[
                SlotData(start=booking.utc_text(slot.start), end=booking.utc_text(slot.end))
                for slot in found.slots
            ],
        ),
    )


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Book a call (and send the quote request with it), or send the request without one",
    description="`start` must be one of /Booking/Slots' starts. The invitation and the "
    'manage link go to `email`. `callKind` "video" (the default: the meeting link is in '
    'the invitation) or "phone" (`phone` required); "none" books no call and sends the '
    "quote request alone (no `start` or `timeZone`), answered with the request's id. Same "
    "limits and bot trap as the form on /request-a-quote; at most 3 upcoming calls per "
    "email.",
    responses=error_responses(409, 429, descriptions=_CONFLICT),
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _booking_schema()}},
        }
    },
)
def book(
    request: Request, body: Annotated[dict[str, Any], Body()]
) -> Envelope[BookedData | RequestData]:
    client_ip = client_address(request)
    # The API's camelCase names of the fields the form names otherwise.
    fields = {
        **body,
        "time_zone": body.get("timeZone", body.get("time_zone", "")),
        "call_kind": body.get("callKind", body.get("call_kind", "")),
    }
    if leads.trap_filled(body):
        # As the form: kept as spam, no mail, no call, answered as received.
        trapped = leads.note_trapped_quote(fields, client_ip=client_ip)
        return Envelope(status=201, message=trapped.message)
    if leads.wants_no_call(fields):
        # Nothing else (no free time to find) stands between a body and a stored request:
        # a field that is not text is refused, as the document says, not read as empty.
        not_text = {
            name: NOT_TEXT
            for name in leads.QuoteWithoutCallInput.field_names()
            if name in body and not isinstance(body[name], str)
        }
        if not_text:
            raise ServiceError(422, NOT_TEXT, fields=not_text)
        try:
            written = leads.QuoteWithoutCallInput.parse(fields)
        except ServiceError as error:
            raise _renamed(error, _BOOKING_NAMES) from None
        sent = leads.submit_quote(written, client_ip=client_ip)
        assert sent.request_id is not None
        return Envelope(status=201, message=sent.message, data=RequestData(id=sent.request_id))
    try:
        chosen = booking.BookingInput.parse(fields)
    except ServiceError as error:
        raise _renamed(error, _BOOKING_NAMES) from None
    receipt = booking.book(chosen, client_ip=client_ip)
    return Envelope(status=201, message=receipt.message, data=BookedData.of(receipt))


@router.post(
    "/Reschedule",
    summary="Move a booked call to another free time",
    description="A call moves a few times an hour and a limited number of times in all; "
    "each client address makes a limited number of moves and cancels an hour.",
    responses=error_responses(404, 409, 410, 429, descriptions=_GONE | _MOVES),
)
def reschedule(request: Request, body: booking.RescheduleInput) -> Envelope[BookedData]:
    receipt = booking.reschedule(body, client_ip=client_address(request))
    return Envelope(status=200, message=receipt.message, data=BookedData.of(receipt))


@router.post(
    "/Cancel",
    summary="Cancel a booked call (its time is free again)",
    responses=error_responses(404, 410, 429, descriptions=_GONE | _CANCELS),
)
def cancel(request: Request, body: booking.CancelInput) -> Envelope[None]:
    booking.cancel(body, client_ip=client_address(request))
    return Envelope(status=200, message="Your call is cancelled.")
