"""The application form as a job seeker fills it in, for the careers browser tests."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.support import cv_files

OPENING = "/careers/devops-engineer"
PDF = "application/pdf"


def fill_application(page: Page, email: str, name: str = "Ada Lovelace") -> None:
    form = page.get_by_role("form", name="Apply for DevOps Engineer")
    form.get_by_label("Name").fill(name)
    form.get_by_label("Email").fill(email)
    form.get_by_label("Phone (optional)").fill("+44 161 496 0000")
    form.get_by_label("Where you are based").fill("Manchester, UK")
    form.get_by_label("LinkedIn, GitHub or portfolio (optional)").fill("https://github.com/ada")
    form.get_by_label("A short note (optional)").fill("Terraform and Kubernetes, five years.")


def choose_cv(page: Page, name: str, data: bytes, mime: str = PDF) -> None:
    page.locator("#apply input[type=file]").set_input_files(
        files=[{"name": name, "mimeType": mime, "buffer": data}]
    )


def apply_in_page(page: Page, name: str, email: str) -> None:
    page.goto(OPENING)
    fill_application(page, email, name)
    choose_cv(page, "cv.pdf", cv_files.pdf())
    page.get_by_label(re.compile("I agree that RCX keeps my application")).check()
    page.get_by_role("button", name="Send my application").click()
    expect(
        page.get_by_role("heading", name="Thank you! Your application has been received.")
    ).to_be_visible()
