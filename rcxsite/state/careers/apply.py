"""The application form on each opening's page: a thin adapter over `rcxsite.careers`.

The form's fields and the CV travel together in one upload (Reflex's /_upload, bounded
by rcxsite/web/upload_limit.py): `send` gets the chosen file and the form's values. The
file picker itself refuses a file over 10 MB or of another kind before anything is sent
(`cv_refused`); the service checks the bytes of whatever does arrive. A refusal shows
each field's message and leaves every typed value, and the chosen file, as it was.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from rcxsite import careers
from rcxsite.careers.cv import CV_ONE_FILE, CV_WRONG_KIND
from rcxsite.state.analytics.page_views import PageViewState
from rcxsite.state.service_calls import FormCall, Outcome, ServiceCall, call_service

CV_UPLOAD_ID = "application-cv"
APPLY_FORM_ID = "apply-form"
FIELDS = (*careers.FORM_FIELDS, careers.CV_FIELD)
SEND_BROKEN = (
    "Something went wrong and your application was not sent. Please try again, or email "
    "your CV to us."
)
# react-dropzone's reasons for refusing a chosen file.
_TOO_LARGE_CODE = "file-too-large"
_TOO_MANY_CODE = "too-many-files"


async def _cv_of(files: list[Any]) -> tuple[careers.CvUpload | None, str]:
    """The one file sent, read at most one byte past the limit (the service names a
    larger one), or the message when none or several came."""
    if not isinstance(files, list) or not files:
        return None, ""
    if len(files) > 1:
        return None, CV_ONE_FILE
    upload = files[0]
    data = await upload.read(careers.CV_MAX_BYTES + 1)
    return careers.CvUpload(name=str(upload.name or ""), data=data), ""


class ApplyState(rx.State):
    field_errors: dict[str, str] = dict.fromkeys(FIELDS, "")
    error: str = ""
    busy: bool = False
    confirmation: str = ""
    next_steps: str = ""
    # The opening the confirmation is for: another opening's page shows its form at once.
    applied_for: str = ""

    @rx.event
    def cv_refused(self, codes: list[str]) -> None:
        """The file picker refused the chosen file (on_drop_rejected), for these reasons
        (react-dropzone's codes)."""
        codes = [code for code in codes if isinstance(code, str)] if isinstance(codes, list) else []
        message = (
            careers.CV_TOO_LARGE
            if _TOO_LARGE_CODE in codes
            else CV_ONE_FILE
            if _TOO_MANY_CODE in codes
            else CV_WRONG_KIND
        )
        self.field_errors = {**self.field_errors, careers.CV_FIELD: message}

    @rx.event
    async def send(self, files: list[rx.UploadFile], form: dict[str, Any]):
        fields = {
            name: value
            for name, value in (form.items() if isinstance(form, dict) else ())
            if isinstance(name, str) and isinstance(value, str)
        }
        client_ip = self.router.session.client_ip
        self.error = ""
        outcome: Outcome[careers.ApplicationReceipt]
        if careers.trap_filled(fields):
            # A bot's form is not validated: it is answered as an accepted one.
            trapped = ServiceCall()
            trapped.busy(self)
            yield
            outcome = await trapped.run(careers.note_trapped_application, client_ip=client_ip)
        else:
            cv, cv_message = await _cv_of(files)
            written = await FormCall.read(careers.ApplicationInput, fields)
            if not written.valid or cv is None:
                # Every field's message at once, the CV's included.
                if cv is not None:
                    checked = await call_service(
                        careers.cv_message, cv.name, cv.data, client_ip=client_ip
                    )
                    cv_message = (checked.value or "") if checked.ok else checked.message()
                self.field_errors = {
                    **written.field_messages(FIELDS),
                    careers.CV_FIELD: cv_message or ("" if cv else careers.CV_REQUIRED),
                }
                self.error = careers.CORRECT_FIELDS
                yield rx.set_focus(self._first_invalid() or APPLY_FORM_ID)
                return
            attribution = (await self.get_state(PageViewState))._attribution()
            written.busy(self)
            yield
            outcome = await written.send(
                careers.apply, cv, client_ip=client_ip, attribution=attribution
            )
        self.field_errors = outcome.field_messages(FIELDS)
        if outcome.ok:
            receipt = outcome.result()
            self.confirmation, self.next_steps = receipt.message, receipt.next_steps
            self.applied_for = fields.get("opening", "")
            yield rx.clear_selected_files(CV_UPLOAD_ID)
            yield rx.set_focus("apply-confirmation")
            return
        self.error = outcome.form_message(broken=SEND_BROKEN) or careers.CORRECT_FIELDS
        yield rx.set_focus(self._first_invalid() or APPLY_FORM_ID)

    def _first_invalid(self) -> str:
        name = next((name for name in FIELDS if self.field_errors.get(name)), "")
        return f"apply-{name}" if name else ""

    @rx.event
    def open_form(self) -> None:
        """on_load of an opening's page: no message of another form shows on it (the
        confirmation stays with the opening it was for)."""
        self.field_errors = dict.fromkeys(FIELDS, "")
        self.error = ""


__all__ = ["APPLY_FORM_ID", "CV_UPLOAD_ID", "SEND_BROKEN", "ApplyState"]
