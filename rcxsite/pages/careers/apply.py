"""The application form on each opening's page (/careers/<slug>#apply): details, a link, a
short note, the CV from the device's file picker (or dropped on it), and consent."""

from __future__ import annotations

from typing import Any

import reflex as rx

from rcxsite import careers
from rcxsite.components.file_picker import labelled_file_input
from rcxsite.components.form_fields import (
    ModelFields,
    field_error,
    form,
    honeypot,
    status_message,
    submit_button,
    textarea_field,
)
from rcxsite.components.react import nav_link
from rcxsite.content import routes
from rcxsite.content.types import Opening
from rcxsite.core.forms import max_length
from rcxsite.state.careers.apply import APPLY_FORM_ID, CV_UPLOAD_ID, SEND_BROKEN, ApplyState

_FIELDS = ModelFields(careers.ApplicationInput, ApplyState.field_errors, "apply")
# The file picker's filter: each kind by its type and its suffix (react-dropzone's form).
_ACCEPT = {content_type: [f".{kind.lower()}"] for content_type, kind in careers.KINDS.items()}
CV_HINT = "PDF, DOCX or ODT, at most 10 MB"


def _reason_codes(rejected: rx.Var[Any]) -> rx.Var[list[str]]:
    return rx.Var(
        _js_expr=f"({rejected}).flatMap((r) => (r.errors || []).map((e) => String(e.code)))",
        _var_type=list[str],
    )


def _cv_picker() -> rx.Component:
    field_id = f"apply-{careers.CV_FIELD}"
    error = ApplyState.field_errors[careers.CV_FIELD]
    chosen = rx.selected_files(CV_UPLOAD_ID)
    return rx.el.div(
        rx.el.p("CV", id=f"{field_id}-label", class_name="field-label"),
        labelled_file_input(
            rx.upload.root(
                rx.el.div(
                    rx.el.button(
                        rx.cond(chosen.length() > 0, "Choose another file", "Choose your CV"),
                        type="button",
                        id=field_id,
                        class_name="button button-outline",
                        aria_describedby=f"{field_id}-label {field_id}-chosen {field_id}-error",
                        aria_invalid=rx.cond(error != "", "true", "false"),
                    ),
                    rx.el.p(
                        rx.cond(
                            chosen.length() > 0,
                            rx.el.span(chosen[0], class_name="cv-chosen-name"),
                            rx.el.span(f"No file chosen ({CV_HINT}). You can also drop it here."),
                        ),
                        id=f"{field_id}-chosen",
                        class_name="cv-chosen",
                    ),
                    class_name="cv-drop",
                ),
                id=CV_UPLOAD_ID,
                accept=_ACCEPT,
                max_files=1,
                max_size=careers.CV_MAX_BYTES,
                multiple=False,
                # The button inside is the one control a keyboard reaches.
                no_keyboard=True,
                # Only the reasons' codes go to the server: a rejection also holds the File,
                # which the socket would send whole (and the site refuses a frame that large).
                on_drop_rejected=lambda rejected: ApplyState.cv_refused(_reason_codes(rejected)),
                class_name="cv-zone",
            ),
            labelled_by=f"{field_id}-label {field_id}-chosen",
        ),
        field_error(field_id, error),
        class_name="field field-wide",
    )


def _consent() -> rx.Component:
    field_id = "apply-consent"
    error = ApplyState.field_errors["consent"]
    return rx.el.div(
        rx.el.label(
            rx.el.input(
                type="checkbox",
                name="consent",
                id=field_id,
                aria_invalid=rx.cond(error != "", "true", "false"),
                aria_describedby=f"{field_id}-error",
                class_name="consent-box",
            ),
            " I agree that RCX keeps my application and CV for 12 months after its last "
            "change, to consider me for this role. I can withdraw at any time with the link "
            "in the confirmation mail.",
            html_for=field_id,
            class_name="consent-label",
        ),
        field_error(field_id, error),
        class_name="field field-wide",
    )


def _form(opening: Opening) -> rx.Component:
    return form(
        rx.el.input(type="hidden", name="opening", value=opening.slug),
        rx.el.div(
            _FIELDS.text("Name", "name", autocomplete="name", aria_required="true"),
            _FIELDS.text(
                "Email", "email", input_type="email", autocomplete="email", aria_required="true"
            ),
            _FIELDS.text("Phone (optional)", "phone", input_type="tel", autocomplete="tel"),
            _FIELDS.text(
                "Where you are based",
                "location",
                autocomplete="address-level2",
                aria_required="true",
                placeholder="City, country",
            ),
            _FIELDS.text(
                "LinkedIn, GitHub or portfolio (optional)",
                "link",
                input_type="url",
                autocomplete="url",
                placeholder="https://",
            ),
            textarea_field(
                "A short note (optional)",
                "note",
                error=ApplyState.field_errors["note"],
                field_id="apply-note",
                rows=4,
                max_length=max_length(careers.ApplicationInput, "note"),
            ),
            _cv_picker(),
            _consent(),
            honeypot(
                "apply-website",
                max_length=max_length(careers.ApplicationInput, careers.HONEYPOT_FIELD),
            ),
            class_name="quote-grid",
        ),
        status_message(ApplyState.error, kind="error"),
        rx.el.p("All fields are required unless marked optional.", class_name="form-note"),
        submit_button("Send my application", "Sending...", busy=ApplyState.busy),
        id=APPLY_FORM_ID,
        on_submit=lambda form_data: ApplyState.send(
            rx.upload_files(upload_id=CV_UPLOAD_ID), form_data
        ),
        aria_label=f"Apply for {opening.title}",
        class_name="quote-form apply-form",
        failure=SEND_BROKEN,
    )


def _confirmation() -> rx.Component:
    return rx.el.div(
        rx.el.h3(
            ApplyState.confirmation,
            id="apply-confirmation",
            tab_index=-1,
            class_name="section-title",
        ),
        rx.el.p(ApplyState.next_steps, class_name="lead"),
        rx.el.p(nav_link("See all open positions", to=routes.CAREERS.path), class_name="lead"),
        role="status",
        class_name="quote-confirmation",
    )


def apply_section(opening: Opening) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h2(f"Apply for {opening.title}", id="apply-heading", class_name="section-title"),
            rx.el.p(
                "It takes a few minutes. We only use your details to consider your application.",
                class_name="section-intro",
            ),
            rx.cond(
                (ApplyState.confirmation != "") & (ApplyState.applied_for == opening.slug),
                _confirmation(),
                _form(opening),
            ),
            class_name="page-width",
        ),
        id="apply",
        class_name="section section-muted apply-section",
        aria_labelledby="apply-heading",
    )
