"""Careers' tables: the applications job seekers send, and each one's history and notes as
the hiring team works it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from rcxsite.models.analytics import Attributed
from rcxsite.models.types import (
    EMAIL_MAX,
    LOCATION_MAX,
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
