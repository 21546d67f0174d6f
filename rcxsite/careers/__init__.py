"""Hiring through the site: job seekers apply with a CV (`applications`, the CV checked by
its bytes in `cv`), the hiring team works each opening's pipeline (`pipeline`), and
applications are erased 12 months after their last change (`retention`).

Framework-free: no Reflex, FastAPI or Starlette. CVs live in the project's one file store
(rcxsite/platform/file_store.py), never on a host's disk or behind a public URL.
"""

from rcxsite.careers.applications import (
    ApplicationReceipt,
    CvUpload,
    WithdrawalPreview,
    apply,
    note_trapped_application,
    withdraw,
    withdrawal_preview,
)
from rcxsite.careers.cv import (
    ACCEPT,
    CV_FIELD,
    CV_MAX_BYTES,
    CV_REQUIRED,
    CV_TOO_LARGE,
    KINDS,
    cv_message,
)
from rcxsite.careers.inputs import (
    CORRECT_FIELDS,
    FORM_FIELDS,
    ApplicationInput,
    NoteInput,
    StageInput,
)
from rcxsite.careers.pipeline import (
    CandidateCv,
    CandidateDetail,
    CandidateRow,
    OpeningPipeline,
    add_note,
    candidate,
    candidate_cv,
    candidates,
    move,
    pipelines,
)
from rcxsite.careers.stages import STAGE_LABELS, STAGES, stage_label
from rcxsite.core.forms import HONEYPOT_FIELD, trap_filled

__all__ = [
    "ACCEPT",
    "CORRECT_FIELDS",
    "CV_FIELD",
    "CV_MAX_BYTES",
    "CV_REQUIRED",
    "CV_TOO_LARGE",
    "FORM_FIELDS",
    "HONEYPOT_FIELD",
    "KINDS",
    "STAGES",
    "STAGE_LABELS",
    "ApplicationInput",
    "ApplicationReceipt",
    "CandidateCv",
    "CandidateDetail",
    "CandidateRow",
    "CvUpload",
    "NoteInput",
    "OpeningPipeline",
    "StageInput",
    "WithdrawalPreview",
    "add_note",
    "apply",
    "candidate",
    "candidate_cv",
    "candidates",
    "cv_message",
    "move",
    "note_trapped_application",
    "pipelines",
    "stage_label",
    "trap_filled",
    "withdraw",
    "withdrawal_preview",
]
