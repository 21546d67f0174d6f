"""Applications stored as a job seeker sends them, for the hiring team's tests."""

from __future__ import annotations

from rcxsite import careers
from tests.support import cv_files

OPENING = "devops-engineer"


def applicant(name: str = "Grace Hopper", email: str = "grace@example.org") -> int:
    form = careers.ApplicationInput.parse(
        {"opening": OPENING, "name": name, "email": email, "location": "Leeds", "consent": "on"}
    )
    receipt = careers.apply(form, careers.CvUpload("cv.pdf", cv_files.pdf()), client_ip="10.1.1.1")
    assert receipt.application_id is not None
    return receipt.application_id
