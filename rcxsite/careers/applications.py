"""A job seeker's side: apply with a CV, and withdraw with the link the confirmation mail
carries.

Framework-free and synchronous (the database and the file store block): the Reflex state
calls it in a thread. `apply` takes the validated `ApplicationInput` and the CV as it
arrived, and returns an `ApplicationReceipt` or raises `ServiceError`: 422 for the CV
(its message under the `cv` field), 429 for a limit, 503 when it could not be kept. A
form whose bot trap is filled is answered as an accepted one, and nothing is kept; so is
an application to an opening the same address applied for within 30 days, whose owner
gets a mail saying theirs stands.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, col, delete, select

from rcxsite.careers.cv import CV_REQUIRED, LIMIT_SCOPE, CheckedCv, check_cv, refused
from rcxsite.careers.inputs import ApplicationInput
from rcxsite.careers.interview_records import erase_interviews
from rcxsite.careers.letters import send_already_applied, send_application_received
from rcxsite.careers.stages import APPLIED
from rcxsite.content.careers import opening_of
from rcxsite.core import tokens
from rcxsite.core.attribution import Attribution, stamped
from rcxsite.core.forms import HONEYPOT_FIELD
from rcxsite.core.ratelimit import Limit, client_key, hit, reserve
from rcxsite.core.service_errors import ServiceError
from rcxsite.core.validation import email_key
from rcxsite.jobs import cancel as cancel_jobs
from rcxsite.models import utcnow
from rcxsite.models.careers import ApplicationChange, JobApplication
from rcxsite.platform.db import hold_advisory_lock, session_scope
from rcxsite.platform.file_store import FileStore, get_file_store
from rcxsite.platform.settings import get_settings, keyed_hash

logger = logging.getLogger(__name__)

CV_KIND = "cv"
DUPLICATE_DAYS = 30
KEPT_MONTHS = 12
RECEIVED = "Thank you! Your application has been received."
NEXT_STEPS = (
    "We have sent you an email with what happens next. The hiring team reads every "
    "application and replies within five working days."
)
WITHDRAW_LINK_INVALID = (
    "This link does not work any more: the application was withdrawn or erased already."
)
WITHDRAWN = "Your application was withdrawn, and your CV erased."
_EMAIL_LIMIT_SCOPE = "job-application-email"


@dataclass(frozen=True, slots=True)
class CvUpload:
    """The CV as the upload brought it: the name the device gave it and its bytes."""

    name: str
    data: bytes


@dataclass(frozen=True, slots=True)
class ApplicationReceipt:
    message: str
    next_steps: str
    application_id: int | None = None


@dataclass(frozen=True, slots=True)
class WithdrawalPreview:
    """What the withdraw page shows before the applicant confirms."""

    name: str
    opening_title: str
    applied_on: str


def rejection_mail_ref(application_id: int) -> str:
    """The queued rejection mail's reference, so that a change of mind cancels it."""
    return f"job-application:{application_id}:rejection"


def _not_stored() -> ServiceError:
    return ServiceError(
        503,
        "Sorry, your application could not be saved. Please try again in a few minutes, "
        f"or email your CV to {get_settings().careers_email}.",
    )


def duplicate_message(applied_on: str) -> str:
    return (
        f"You applied for this role on {applied_on}, and we have your application: there is "
        "no need to send it again. We will be in touch within five working days."
    )


def note_trapped_application(*, client_ip: str) -> ApplicationReceipt:
    """A form whose bot trap is filled: counted against the same limit, kept nowhere, and
    answered as an accepted application is, so a bot learns nothing."""
    hit(Limit(get_settings().application_limit, LIMIT_SCOPE, client_key(client_ip)))
    logger.info(
        "Application form trap field filled by client %s; nothing kept",
        keyed_hash(client_ip)[:12],
    )
    return ApplicationReceipt(message=RECEIVED, next_steps=NEXT_STEPS)


def apply(
    application: ApplicationInput,
    cv: CvUpload | None,
    *,
    client_ip: str,
    attribution: Attribution | None = None,
    store: Callable[[], FileStore] = get_file_store,
) -> ApplicationReceipt:
    """Check the CV, keep it and the application, and queue the applicant's mail."""
    settings = get_settings()
    hit(Limit(settings.application_limit, LIMIT_SCOPE, client_key(client_ip)))
    if cv is None:
        raise refused(CV_REQUIRED)
    checked = check_cv(cv.name, cv.data)
    key = email_key(application.email)
    # Counted before the duplicate check: nobody can fill an address's mailbox either way.
    per_email = reserve(Limit(settings.application_email_limit, _EMAIL_LIMIT_SCOPE, key))
    try:
        application_id = _keep(application, checked, client_ip, attribution, store())
    except SQLAlchemyError:
        per_email.give_back()
        logger.exception("Could not store a job application")
        raise _not_stored() from None
    # A repeat (application_id None) is answered as a new one: whoever typed the address
    # learns nothing of its owner, who was mailed that their application stands.
    return ApplicationReceipt(
        message=RECEIVED, next_steps=NEXT_STEPS, application_id=application_id
    )


def _recent_application(session: Session, key: str, opening: str) -> str | None:
    """The day of an application by the same address to the same opening within
    DUPLICATE_DAYS, as a person reads it ("12 November 2026"); None when there is none."""
    since = utcnow() - timedelta(days=DUPLICATE_DAYS)
    created = session.exec(
        select(JobApplication.created_at)
        .where(
            col(JobApplication.email_key) == key,
            col(JobApplication.opening) == opening,
            col(JobApplication.created_at) >= since,
        )
        .order_by(col(JobApplication.created_at).desc())
    ).first()
    return f"{created:%-d %B %Y}" if created is not None else None


def _keep(
    application: ApplicationInput,
    cv: CheckedCv,
    client_ip: str,
    attribution: Attribution | None,
    store: FileStore,
) -> int | None:
    """The new application's id, or None for a repeat within DUPLICATE_DAYS (its owner
    mailed instead). The CV goes to the store first, outside the transaction (the database
    store writes in a transaction of its own); a repeat's is erased again."""
    cv_key = store.put(CV_KIND, cv.data, cv.content_type)
    token, digest = tokens.new_token()
    key = email_key(application.email)
    fields = application.model_dump(exclude={HONEYPOT_FIELD, "consent"})
    row = stamped(
        JobApplication(
            **fields,
            email_key=key,
            cv_key=cv_key,
            cv_name=cv.name,
            cv_type=cv.content_type,
            cv_size=len(cv.data),
            stage=APPLIED,
            withdraw_digest=digest,
            client_ip_hash=keyed_hash(client_ip),
        ),
        attribution,
    )
    title = opening_of(row.opening).title
    application_id: int | None = None
    try:
        # The check and the write as one step: two sends of one address to one opening
        # at the same moment keep one application (the other is told it stands). The
        # application and its mail in one transaction: kept means the applicant hears.
        with session_scope(for_update=True) as session:
            hold_advisory_lock(session, _EMAIL_LIMIT_SCOPE, f"{key} {row.opening}")
            previous = _recent_application(session, key, row.opening)
            if previous is not None:
                send_already_applied(
                    application.email,
                    application.name,
                    title,
                    message=duplicate_message(previous),
                    session=session,
                )
            else:
                session.add(row)
                session.flush()
                application_id = row.id
                send_application_received(row, title, token=token, session=session)
    except BaseException:
        _erase_file(store, cv_key)  # nothing refers to it
        raise
    if application_id is None:
        _erase_file(store, cv_key)  # a repeat's
    return application_id


def _erase_file(store: FileStore, key: str) -> None:
    try:
        store.delete(key)
    except Exception:  # the retention job finds no row for it; logged for the operator
        logger.exception("Could not erase the file of an application that was not kept")


def _by_digest(session: Session, digest: str | None, *, for_update: bool = False) -> JobApplication:
    if digest is None:
        raise ServiceError(404, WITHDRAW_LINK_INVALID)
    query = select(JobApplication).where(col(JobApplication.withdraw_digest) == digest)
    row = session.exec(query.with_for_update() if for_update else query).first()
    if row is None:
        raise ServiceError(404, WITHDRAW_LINK_INVALID)
    return row


def withdrawal_preview(*, link_digest: str | None) -> WithdrawalPreview:
    """Whose application the withdraw link names, for the page to ask before it acts."""
    with session_scope() as session:
        row = _by_digest(session, link_digest)
        return WithdrawalPreview(
            name=row.name,
            opening_title=opening_of(row.opening).title,
            applied_on=f"{row.created_at:%-d %B %Y}",
        )


def withdraw(*, link_digest: str | None, store: Callable[[], FileStore] = get_file_store) -> str:
    """Erase the application the link names, its history and its CV, at once; what the
    page then says."""
    # Locked (SQLite's write lock; the row on PostgreSQL) before its interviews are read,
    # so an interview being booked meanwhile is either seen and cancelled or waits.
    with session_scope(for_update=True) as session:
        row = _by_digest(session, link_digest, for_update=True)
        assert row.id is not None
        cv_key, application_id = row.cv_key, row.id
        cancel_jobs(session, ref=rejection_mail_ref(application_id))
        # Its interviews to come are cancelled, so the interviewers' calendars free up.
        erase_interviews(session, application_id, now=utcnow())
        session.exec(
            delete(ApplicationChange).where(col(ApplicationChange.application_id) == application_id)
        )
        session.exec(delete(JobApplication).where(col(JobApplication.id) == application_id))
    _erase_file(store(), cv_key)
    logger.info("Job application %d withdrawn by its applicant and erased", application_id)
    return WITHDRAWN
