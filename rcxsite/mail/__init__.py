"""Outgoing mail: SMTP when `SMTP_HOST` is set, otherwise .eml files in `OUTBOX_DIR`.

Sending never blocks the caller; see `send_mail`.
"""

from rcxsite.mail.messages import (
    send_account_deleted_mail,
    send_email_verification_mail,
    send_password_changed_mail,
    send_password_reset_mail,
    send_plan_chosen_mail,
    send_registration_attempt_mail,
    send_trial_mail,
)
from rcxsite.mail.outgoing import composes_mail, send_mail, wait_for_outgoing_mail

__all__ = [
    "composes_mail",
    "send_account_deleted_mail",
    "send_email_verification_mail",
    "send_mail",
    "send_password_changed_mail",
    "send_password_reset_mail",
    "send_plan_chosen_mail",
    "send_registration_attempt_mail",
    "send_trial_mail",
    "wait_for_outgoing_mail",
]
