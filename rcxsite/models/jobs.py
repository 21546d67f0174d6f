"""The durable work table: mail and jobs that must happen later, on the site's database."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, Text
from sqlmodel import Field, SQLModel

from rcxsite.models.types import UTCDateTime, utcnow

JOB_KIND_MAX = 64
JOB_REF_MAX = 200
JOB_STATE_MAX = 16
JOB_ERROR_MAX = 500
RUNNER_NAME_MAX = 100


class Job(SQLModel, table=True):
    """One piece of work: a mail to deliver, a reminder due at a time.

    `state` is queued until it is done, failed (given up, `last_error` says why) or
    cancelled (its reason, `ref`, went away). A runner claims a queued job whose `due_at`
    has come by setting `claimed_until` (its lease) and `claimed_by`; a runner that dies
    lets the lease run out and another takes the job over.
    """

    __tablename__ = "job"
    __table_args__ = (
        Index("ix_job_state_due_at", "state", "due_at"),
        Index("ix_job_ref", "ref"),
    )

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=JOB_KIND_MAX)
    # What the job is about ("booking:12"): cancelling the reason cancels its jobs.
    ref: str = Field(default="", max_length=JOB_REF_MAX)
    # JSON, or for a mail the whole message sealed at rest (it may hold a reset link);
    # emptied once the job is done.
    payload: str = Field(default="", sa_column=Column(Text, nullable=False))
    state: str = Field(default="queued", max_length=JOB_STATE_MAX)
    due_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    attempts: int = 0
    claimed_until: datetime | None = Field(default=None, sa_type=UTCDateTime)
    claimed_by: str = Field(default="", max_length=RUNNER_NAME_MAX)
    last_error: str = Field(default="", max_length=JOB_ERROR_MAX)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class PeriodicRun(SQLModel, table=True):
    """The last period each periodic job ran for: runners race to move it on, one wins."""

    __tablename__ = "periodic_run"

    name: str = Field(primary_key=True, max_length=JOB_KIND_MAX)
    period: int = 0
    ran_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    ran_by: str = Field(default="", max_length=RUNNER_NAME_MAX)
