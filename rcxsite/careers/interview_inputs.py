"""What the hiring team sends to find and book an interview, and what a candidate sends to
move theirs: each field once, with its message."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from pydantic import Field

from rcxsite.booking.inputs import start_time, time_zone_name
from rcxsite.careers.inputs import APPLICATION_UNKNOWN, row_id
from rcxsite.core.forms import FormInput, parsed_by, problem
from rcxsite.core.service_errors import ServiceError
from rcxsite.models.staff import TIME_ZONE_MAX

# One interview's panel: enough for a technical round, few enough to find a common time.
INTERVIEWERS_MAX = 4
INTERVIEWERS_REQUIRED = "Please choose who interviews"
INTERVIEWERS_TOO_MANY = f"Please choose at most {INTERVIEWERS_MAX} interviewers"
START_REQUIRED = "Please choose a time for the interview"
INTERVIEW_UNKNOWN = "This interview no longer exists."


def _interviewers(value: object) -> tuple[int, ...]:
    """Member ids, each once, in the order chosen (the first one's hours set the grid)."""
    if isinstance(value, str | int):
        value = [value]
    if not isinstance(value, list | tuple):
        raise problem(INTERVIEWERS_REQUIRED)
    chosen: list[int] = []
    for item in value:
        member_id = row_id(item, unknown=INTERVIEWERS_REQUIRED)
        if member_id not in chosen:
            chosen.append(member_id)
    if not chosen:
        raise problem(INTERVIEWERS_REQUIRED)
    if len(chosen) > INTERVIEWERS_MAX:
        raise problem(INTERVIEWERS_TOO_MANY)
    return tuple(chosen)


def _start(value: object) -> datetime:
    try:
        return start_time(value)
    except ValueError:
        raise problem(START_REQUIRED) from None


class InterviewersInput(FormInput):
    """An application and the members who would interview its candidate: what their common
    free times are asked for."""

    application_id: int = Field(0)
    interviewers: tuple[int, ...] = ()

    _id = parsed_by(row_id, "application_id", before=True)
    _interviewers = parsed_by(_interviewers, "interviewers", before=True)


class InterviewInput(InterviewersInput):
    """An interview booked at `start` (UTC), one of the interviewers' common free times."""

    start: datetime = Field(cast(datetime, None))

    _start = parsed_by(_start, "start", before=True)


class InterviewCancelInput(FormInput):
    """The hiring team's cancel of one of an application's interviews."""

    application_id: int = Field(0)
    interview_id: int = Field(0)

    _id = parsed_by(row_id, "application_id", before=True)
    _interview = parsed_by(row_id, "interview_id", before=True, unknown=INTERVIEW_UNKNOWN)


class InterviewMoveInput(FormInput):
    """A candidate's new time for their interview, from the times their link offers, and
    the zone their browser is on (their mail's clock)."""

    start: datetime = Field(cast(datetime, None))
    time_zone: str = Field("", max_length=TIME_ZONE_MAX)

    _start = parsed_by(_start, "start", before=True)
    _time_zone = parsed_by(time_zone_name, "time_zone", before=True)


def unknown_interview() -> ServiceError:
    return ServiceError(404, INTERVIEW_UNKNOWN)


__all__ = [
    "APPLICATION_UNKNOWN",
    "INTERVIEWERS_MAX",
    "INTERVIEW_UNKNOWN",
    "InterviewCancelInput",
    "InterviewInput",
    "InterviewMoveInput",
    "InterviewersInput",
]
