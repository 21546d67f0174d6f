"""Hiring through the site: job seekers apply with a CV (`applications`, the CV checked by
its bytes in `cv`), the hiring team works each opening's pipeline (`pipeline`), and
applications are erased 12 months after their last change (`retention`). Interviews are
booked through the booking engine with the interviewers' common free times, and the
candidate moves or cancels theirs from a link (`interviews`, its mails `interview_mail`).

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
from rcxsite.careers.interview_inputs import (
    InterviewCancelInput,
    InterviewersInput,
    InterviewInput,
    InterviewMoveInput,
)
from rcxsite.careers.interviews import (
    CandidateInterview,
    Interviewer,
    book_interview,
    cancel_by_candidate,
    cancel_interview,
    candidate_interview,
    interview_times,
    interviewers,
    move_interview,
    times_to_move_to,
)
from rcxsite.careers.pipeline import (
    CandidateCv,
    CandidateDetail,
    CandidateRow,
    InterviewLine,
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
    "CandidateInterview",
    "CandidateRow",
    "CvUpload",
    "InterviewCancelInput",
    "InterviewInput",
    "InterviewLine",
    "InterviewMoveInput",
    "Interviewer",
    "InterviewersInput",
    "NoteInput",
    "OpeningPipeline",
    "StageInput",
    "WithdrawalPreview",
    "add_note",
    "apply",
    "book_interview",
    "cancel_by_candidate",
    "cancel_interview",
    "candidate",
    "candidate_cv",
    "candidate_interview",
    "candidates",
    "cv_message",
    "interview_times",
    "interviewers",
    "move",
    "move_interview",
    "note_trapped_application",
    "pipelines",
    "stage_label",
    "times_to_move_to",
    "trap_filled",
    "withdraw",
    "withdrawal_preview",
]
