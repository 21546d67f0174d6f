"""Database tables, one module per feature: `accounts`, `leads`, `staff`, `jobs`,
`booking`, `analytics`, `careers`, on the column types and sizes they share (`types`). Every change
here needs a matching Alembic migration in alembic/versions/.

A feature's tables live here, not in its service package, so that one import of
rcxsite.models registers every table on `SQLModel.metadata` (alembic/env.py, the tests'
schema) and every table is imported as `from rcxsite.models import X`.
"""

from __future__ import annotations

from rcxsite.models.accounts import (
    Customer,
    EmailVerificationToken,
    LoginSession,
    PasswordResetToken,
)
from rcxsite.models.analytics import (
    AnalyticsDaily,
    AnalyticsDailyPair,
    AnalyticsSalt,
    AnalyticsView,
    AnalyticsVisit,
    Attributed,
)
from rcxsite.models.booking import Booking, MemberDay, MemberHours, MemberTimeOff
from rcxsite.models.calendars import CalendarCopy, MemberBusy, MemberCalendar
from rcxsite.models.careers import ApplicationChange, Interview, InterviewSeat, JobApplication
from rcxsite.models.jobs import Job, PeriodicRun
from rcxsite.models.leads import POSTGRESQL_ONLY_INDEXES, QuoteRequest, include_in_schema
from rcxsite.models.staff import (
    AuditEntry,
    QuoteChange,
    QuoteNote,
    StaffInvitation,
    StaffMember,
    StaffSession,
)
from rcxsite.models.types import (
    CALL_TIME_LENGTH,
    CHOICE_MAX,
    COMPANY_NAME_MAX,
    EMAIL_MAX,
    LOCATION_MAX,
    LOST_REASON_MAX,
    MOBILE_NUMBER_LENGTH,
    PHONE_MAX,
    QUOTE_MESSAGE_MAX,
    QUOTE_NAME_MAX,
    SHA256_HEX_LENGTH,
    STATUS_MAX,
    USER_NAME_MAX,
    UTCDateTime,
    utcnow,
)

# The file store's table sits in the platform (below every feature); registered here with
# the rest, once the naming convention above is set.
from rcxsite.platform.file_store import StoredFile

__all__ = [
    "CALL_TIME_LENGTH",
    "CHOICE_MAX",
    "COMPANY_NAME_MAX",
    "EMAIL_MAX",
    "LOCATION_MAX",
    "LOST_REASON_MAX",
    "MOBILE_NUMBER_LENGTH",
    "PHONE_MAX",
    "POSTGRESQL_ONLY_INDEXES",
    "QUOTE_MESSAGE_MAX",
    "QUOTE_NAME_MAX",
    "SHA256_HEX_LENGTH",
    "STATUS_MAX",
    "USER_NAME_MAX",
    "AnalyticsDaily",
    "AnalyticsDailyPair",
    "AnalyticsSalt",
    "AnalyticsView",
    "AnalyticsVisit",
    "ApplicationChange",
    "Attributed",
    "AuditEntry",
    "Booking",
    "CalendarCopy",
    "Customer",
    "EmailVerificationToken",
    "Interview",
    "InterviewSeat",
    "Job",
    "JobApplication",
    "LoginSession",
    "MemberBusy",
    "MemberCalendar",
    "MemberDay",
    "MemberHours",
    "MemberTimeOff",
    "PasswordResetToken",
    "PeriodicRun",
    "QuoteChange",
    "QuoteNote",
    "QuoteRequest",
    "StaffInvitation",
    "StaffMember",
    "StaffSession",
    "StoredFile",
    "UTCDateTime",
    "include_in_schema",
    "utcnow",
]
