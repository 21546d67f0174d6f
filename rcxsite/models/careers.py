"""Careers' tables: the applications job seekers send, each one's history and notes as
the hiring team works it, and the interviews booked with its candidate.

An interview holds each of its interviewers' time as a booked call holds its host's: the
free times of calls and of interviews both read `InterviewSeat` beside `Booking`
(rcxsite/booking/slots.py), and a write of either takes the member's row lock first."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from rcxsite.models.analytics import Attributed
from rcxsite.models.booking import BOOKED, BOOKING_UID_MAX, SEALED_TOKEN_MAX
from rcxsite.models.staff import TIME_ZONE_MAX
from rcxsite.models.types import (
    EMAIL_MAX,
    LOCATION_MAX,
    MEETING_URL_MAX,
    PHONE_MAX,
    QUOTE_NAME_MAX,
    SHA256_HEX_LENGTH,
    STATUS_MAX,
    UTCDateTime,
    utcnow,
)

OPENING_SLUG_MAX = 80
APPLICATION_LINK_MAX = 300
APPLICATION_NOTE_MAX = 2000
CV_NAME_MAX = 200
CV_KEY_MAX = 120
CV_TYPE_MAX = 120
CHANGE_KIND_MAX = 16
CHANGE_TEXT_MAX = 2000
MEMBER_NAME_MAX = 100


class JobApplication(Attributed, table=True):
    """One person's application to one opening, with the key of their CV in the file store
    (rcxsite/platform/file_store.py): never a path, never a URL."""

    __tablename__ = "job_application"
    # The pipeline lists one opening's stage, newest first; a duplicate is found by email
    # and opening; retention reads by last change.
    __table_args__ = (
        Index("ix_job_application_opening_stage_created_at", "opening", "stage", "created_at"),
        Index("ix_job_application_email_opening", "email_key", "opening"),
    )

    id: int | None = Field(default=None, primary_key=True)
    # The opening's slug (rcxsite/content/careers.py), which stays when the opening closes.
    opening: str = Field(max_length=OPENING_SLUG_MAX)
    name: str = Field(max_length=QUOTE_NAME_MAX)
    email: str = Field(max_length=EMAIL_MAX)
    # The address as it is unique: case-blind (rcxsite.core.validation.email_key).
    email_key: str = Field(max_length=EMAIL_MAX)
    phone: str = Field(default="", max_length=PHONE_MAX)
    location: str = Field(max_length=LOCATION_MAX)
    link: str = Field(default="", max_length=APPLICATION_LINK_MAX)
    note: str = Field(default="", max_length=APPLICATION_NOTE_MAX)
    cv_key: str = Field(max_length=CV_KEY_MAX)
    # The file's name as the applicant's device gave it, cleaned: for the download only.
    cv_name: str = Field(max_length=CV_NAME_MAX)
    # What its bytes are (rcxsite/careers/cv.py), never what the browser claimed.
    cv_type: str = Field(max_length=CV_TYPE_MAX)
    cv_size: int
    # One of rcxsite.careers.stages.STAGES.
    stage: str = Field(default="applied", max_length=STATUS_MAX)
    # The applicant's withdraw link (its SHA-256; the link itself is only in their mail).
    withdraw_digest: str = Field(max_length=SHA256_HEX_LENGTH, unique=True)
    client_ip_hash: str = Field(max_length=SHA256_HEX_LENGTH)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # Any change by the hiring team or the applicant: retention counts 12 months from it.
    changed_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)


class ApplicationChange(SQLModel, table=True):
    """A line of an application's history: a move to a stage, or a note."""

    __tablename__ = "job_application_change"

    id: int | None = Field(default=None, primary_key=True)
    application_id: int = Field(foreign_key="job_application.id", ondelete="CASCADE", index=True)
    actor_id: int | None = Field(default=None, foreign_key="staff_member.id", ondelete="SET NULL")
    actor_name: str = Field(max_length=MEMBER_NAME_MAX)
    # "stage" (old_stage → new_stage) or "note" (text).
    kind: str = Field(max_length=CHANGE_KIND_MAX)
    old_stage: str = Field(default="", max_length=STATUS_MAX)
    new_stage: str = Field(default="", max_length=STATUS_MAX)
    text: str = Field(default="", max_length=CHANGE_TEXT_MAX)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class Interview(SQLModel, table=True):
    """An interview booked with a candidate: its time, its meeting link and the candidate's
    manage link (its SHA-256 to find it, and sealed, so reminders can show it again)."""

    __tablename__ = "interview"

    id: int | None = Field(default=None, primary_key=True)
    application_id: int = Field(foreign_key="job_application.id", ondelete="CASCADE", index=True)
    starts_at: datetime = Field(sa_type=UTCDateTime)
    ends_at: datetime = Field(sa_type=UTCDateTime)
    # The interviewers' time it takes: the interview and the buffer after it.
    blocked_until: datetime = Field(sa_type=UTCDateTime)
    # rcxsite.models.booking's BOOKED, MOVED or CANCELLED; `active` while it holds time.
    status: str = Field(default=BOOKED, max_length=STATUS_MAX)
    active: bool = True
    # Where the candidate's times are written: the zone their browser gave, else the company's.
    time_zone: str = Field(default="", max_length=TIME_ZONE_MAX)
    token_hash: str = Field(max_length=SHA256_HEX_LENGTH, unique=True)
    token_sealed: str = Field(max_length=SEALED_TOKEN_MAX)
    uid: str = Field(max_length=BOOKING_UID_MAX, unique=True)
    sequence: int = 0
    meeting_url: str = Field(default="", max_length=MEETING_URL_MAX)
    booked_by: str = Field(default="", max_length=MEMBER_NAME_MAX)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class InterviewSeat(SQLModel, table=True):
    """One interviewer of an interview: their time is taken while the interview is active."""

    __tablename__ = "interview_seat"
    __table_args__ = (
        Index("ix_interview_seat_member_interview", "staff_member_id", "interview_id", unique=True),
    )

    id: int | None = Field(default=None, primary_key=True)
    interview_id: int = Field(foreign_key="interview.id", ondelete="CASCADE", index=True)
    staff_member_id: int = Field(foreign_key="staff_member.id", ondelete="RESTRICT")
