"""/staff/invite/{token}: an invited member's way into the back office (bare layout,
noindex)."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.form_fields import (
    ModelFields,
    action_button,
    form,
    status_message,
    submit_button,
)
from rcxsite.components.react import OneTimeDownload, OneTimeSecret
from rcxsite.content.routes import Route
from rcxsite.pages.staff.shared import code_field, entry_card
from rcxsite.staff.inputs import EnrolmentCodeInput, StaffPasswordInput
from rcxsite.state.staff.invite import (
    ENROLMENT_KEY,
    ENROLMENT_QR,
    RECOVERY_CODES,
    StaffInviteState,
)


def _password_step() -> rx.Component:
    fields = ModelFields(StaffPasswordInput, StaffInviteState.field_errors, "invite")
    return rx.fragment(
        rx.el.p(
            "Welcome, ",
            StaffInviteState.name,
            ". Choose a password of at least 12 characters for ",
            StaffInviteState.email,
            ".",
            class_name="auth-lead",
        ),
        form(
            fields.password(
                "New password",
                "new_password",
                field_id="invite-new-password",
                autocomplete="new-password",
            ),
            fields.password(
                "Confirm new password",
                "confirm_new_password",
                field_id="invite-confirm-password",
                autocomplete="new-password",
            ),
            status_message(StaffInviteState.error, kind="error"),
            submit_button("Continue", "Saving…", busy=StaffInviteState.busy),
            on_submit=StaffInviteState.choose_password,
            class_name="auth-form",
            aria_label="Choose a password",
        ),
    )


def _code_step() -> rx.Component:
    return rx.fragment(
        rx.el.h2("Set up your authenticator app", class_name="staff-step-title"),
        rx.el.p(
            "Scan this QR code with an authenticator app (or type the key below), then "
            "enter the 6-digit code it shows.",
            class_name="auth-lead",
        ),
        rx.el.figure(
            OneTimeSecret.create(
                slot=ENROLMENT_QR,
                kind="svg",
                class_name="staff-qr",
                label="QR code with your sign-in key",
            ),
            rx.el.figcaption("Key: ", OneTimeSecret.create(slot=ENROLMENT_KEY, id="staff-key")),
            class_name="staff-qr-figure",
        ),
        form(
            code_field(
                StaffInviteState.field_errors["code"],
                field_id="invite-code",
                model=EnrolmentCodeInput,
            ),
            rx.el.p(
                "The code changes every 30 seconds.", id="invite-code-hint", class_name="field-hint"
            ),
            status_message(StaffInviteState.error, kind="error"),
            submit_button("Verify", "Checking…", busy=StaffInviteState.busy),
            on_submit=StaffInviteState.verify,
            class_name="auth-form",
            aria_label="Verify the code",
        ),
    )


def _codes_step() -> rx.Component:
    return rx.fragment(
        rx.el.h2("Your recovery codes", class_name="staff-step-title"),
        rx.el.p(
            "Each code signs you in once if you lose your phone. Keep them somewhere "
            "safe: they are shown only now.",
            class_name="auth-lead",
        ),
        OneTimeSecret.create(slot=RECOVERY_CODES, kind="lines", class_name="staff-recovery-codes"),
        rx.el.div(
            OneTimeDownload.create(
                "Download as a text file",
                slot=RECOVERY_CODES,
                filename="rcx-staff-recovery-codes.txt",
                heading="RCX staff recovery codes (each works once)\n\n",
                class_name="button button-outline",
            ),
            action_button(
                "I have saved them, continue", on_click=StaffInviteState.done, kind="primary"
            ),
            class_name="staff-actions",
        ),
    )


def staff_invite_page(route: Route) -> rx.Component:
    return entry_card(
        "Staff invitation",
        rx.match(
            StaffInviteState.step,
            ("password", _password_step()),
            ("code", _code_step()),
            ("codes", _codes_step()),
            ("invalid", status_message(StaffInviteState.error, kind="error")),
            rx.el.p("Checking your invitation…", role="status"),
        ),
    )
