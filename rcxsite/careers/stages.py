"""The hiring pipeline's stages, in the order an application moves through them."""

from __future__ import annotations

APPLIED = "applied"
SCREENING = "screening"
INTERVIEW = "interview"
OFFER = "offer"
HIRED = "hired"
REJECTED = "rejected"

STAGES: tuple[str, ...] = (APPLIED, SCREENING, INTERVIEW, OFFER, HIRED, REJECTED)
STAGE_LABELS: dict[str, str] = {
    APPLIED: "Applied",
    SCREENING: "Screening",
    INTERVIEW: "Interview",
    OFFER: "Offer",
    HIRED: "Hired",
    REJECTED: "Rejected",
}


def stage_label(stage: str) -> str:
    return STAGE_LABELS.get(stage, stage.capitalize())
