"""The paths services link to (mails, invitations, exports), written once here and read by
the route table (rcxsite/content/routes.py), so a service never loads the route table and
the articles it reads from disk. A path of the route table that no service links to is
written there, not here."""

from __future__ import annotations

LOG_IN = "/log-in"
FORGOT_PASSWORD = "/forgot-password"
QUOTE = "/request-a-quote"
PRICING = "/pricing"
ACCOUNT = "/account"
# Its title, which the analytics funnel names a step after.
QUOTE_TITLE = "Request a Quote"
RESET_PASSWORD = "/authentication/reset-password/[token]"
VERIFY_EMAIL = "/verify-email/[token]"
BOOKING = "/booking/[token]"
STAFF_INVITE = "/staff/invite/[token]"
# An applicant's link to withdraw their application (in the mail that confirms it).
WITHDRAW_APPLICATION = "/careers/withdraw/[token]"
INTERVIEW = "/careers/interview/[token]"
STAFF_CANDIDATE = "/staff/candidates/[id]"
# A candidate's CV, served only to the hiring team (rcxsite/web/candidate_cv.py).
STAFF_CANDIDATE_CV = "/staff/candidates/[id]/cv"
STAFF_QUOTE = "/staff/quotes/[id]"
STAFF_CUSTOMER = "/staff/customers/[id]"
# A member's calls as a calendar subscription: /staff/calendar/<token>.ics.
STAFF_CALENDAR_FEED = "/staff/calendar"
# Where a page's script hands a sign-in's ticket over for its HttpOnly cookie.
LOGIN_COOKIE = "/_login_cookie"
STAFF_COOKIE = "/_staff_cookie"


def with_token(path: str, token: str) -> str:
    """`path` with its `[token]` part filled in."""
    return path.replace("[token]", token)


def with_id(path: str, row_id: int) -> str:
    """`path` with its `[id]` part filled in."""
    return path.replace("[id]", str(row_id))


def reset_password_path(token: str) -> str:
    return with_token(RESET_PASSWORD, token)


def verify_email_path(token: str) -> str:
    return with_token(VERIFY_EMAIL, token)


def booking_path(token: str) -> str:
    return with_token(BOOKING, token)


def staff_invite_path(token: str) -> str:
    return with_token(STAFF_INVITE, token)


def withdraw_application_path(token: str) -> str:
    return with_token(WITHDRAW_APPLICATION, token)


def interview_path(token: str) -> str:
    return with_token(INTERVIEW, token)


def staff_candidate_path(application_id: int) -> str:
    return with_id(STAFF_CANDIDATE, application_id)


def staff_candidate_cv_path(application_id: int) -> str:
    return with_id(STAFF_CANDIDATE_CV, application_id)


def staff_quote_path(quote_id: int) -> str:
    return with_id(STAFF_QUOTE, quote_id)


def staff_customer_path(customer_id: int) -> str:
    return with_id(STAFF_CUSTOMER, customer_id)
