"""A job seeker applies from an opening's page at 1280 and 375 px: the CV from the file
picker, the mail with what happens next, and the candidate in the hiring team's pipeline
with where they came from; a CV that is not one (a program renamed cv.pdf), an 11 MB file
and an empty one are refused with their messages and nothing typed is lost."""

from __future__ import annotations

import re
import uuid
from email.message import Message

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, text

from tests.support import cv_files
from tests.support.browser import CHROME, DESKTOP, NOT_DRIVEN, PHONE, axe_violations, open_tab
from tests.support.careers_pages import (
    OPENING,
    PDF,
    apply_in_page,
    choose_cv,
    fill_application,
)
from tests.support.live_server import LiveServer
from tests.support.plain_http import request
from tests.support.smtp import Mailbox
from tests.support.staff_ui import signed_in_member


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_apply_with_a_pdf_then_the_hiring_team_sees_the_candidate_and_source(
    browser, viewport: dict[str, int], live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    # A person's browser (not a driven one), so the tab is counted and the source kept.
    with open_tab(browser, live_site, viewport, user_agent=CHROME) as page:
        page.add_init_script(NOT_DRIVEN)
        _apply_from_a_job_board(page, live_site, site_mailbox)


def _apply_from_a_job_board(page: Page, live_site: LiveServer, site_mailbox: Mailbox) -> None:
    suffix = uuid.uuid4().hex[:8]
    email, name = f"ada-{suffix}@example.org", f"Ada Lovelace {suffix}"
    page.goto(f"{OPENING}?utm_source=jobboard&utm_medium=referral&utm_campaign=winter")
    page.get_by_role("link", name="Apply now").click()
    expect(page.get_by_role("heading", name="Apply for DevOps Engineer")).to_be_in_viewport()
    fill_application(page, email, name)
    choose_cv(page, "Ada Lovelace CV.pdf", cv_files.pdf())
    expect(page.get_by_text("Ada Lovelace CV.pdf")).to_be_visible()
    page.get_by_label(re.compile("I agree that RCX keeps my application")).check()
    assert axe_violations(page) == [], page.viewport_size
    page.get_by_role("button", name="Send my application").click()

    expect(
        page.get_by_role("heading", name="Thank you! Your application has been received.")
    ).to_be_visible()
    mail = site_mailbox.wait_for(email)
    assert mail["Subject"] == "Your application to RCX: DevOps Engineer"
    withdraw = re.search(
        r"/careers/withdraw/[A-Za-z0-9_-]+", mail.get_body(("plain",)).get_content()
    )
    assert withdraw

    staff = page.context.new_page()
    signed_in_member(staff, live_site, "hiring")
    row = staff.get_by_role("table", name="Candidates").locator("tbody tr").filter(has_text=name)
    expect(row).to_contain_text("DevOps Engineer")
    expect(row).to_contain_text("jobboard (referral)")
    expect(row).to_contain_text("Applied")
    assert axe_violations(staff) == [], staff.viewport_size

    # Changed their mind: the mail's link, one confirmation, and the candidate is gone.
    page.goto(withdraw.group(0))
    expect(page.get_by_text("Your application for DevOps Engineer")).to_be_visible()
    assert axe_violations(page) == [], page.viewport_size
    page.get_by_role("button", name="Withdraw my application").click()
    expect(page.get_by_role("status").filter(has_text="withdrawn")).to_have_text(
        "Your application was withdrawn, and your CV erased."
    )
    staff.reload()
    expect(staff.get_by_role("region", name="Pipelines")).to_be_visible()
    expect(staff.get_by_text(name)).to_have_count(0)
    staff.close()


def test_refused_files_say_why_and_keep_what_was_typed(any_page: Page) -> None:
    page = any_page
    page.goto(OPENING)
    fill_application(page, "grace@example.org")
    page.get_by_label(re.compile("I agree that RCX keeps my application")).check()
    cv_error = page.locator("#apply-cv-error")

    choose_cv(page, "cv.pdf", cv_files.PROGRAM)
    page.get_by_role("button", name="Send my application").click()
    expect(cv_error).to_have_text(
        "This file is not a PDF, whatever its name says. Please attach your CV as a PDF, "
        "DOCX or ODT file"
    )
    expect(page.get_by_role("alert")).to_have_text("Please correct the highlighted fields.")

    choose_cv(page, "big.pdf", cv_files.pdf(size=11 * 1024 * 1024))
    expect(cv_error).to_have_text("Your CV must be at most 10 MB")

    choose_cv(page, "empty.pdf", b"")
    page.get_by_role("button", name="Send my application").click()
    expect(cv_error).to_have_text("This file is empty. Please choose your CV again")

    form = page.get_by_role("form", name="Apply for DevOps Engineer")
    expect(form.get_by_label("Name")).to_have_value("Ada Lovelace")
    expect(form.get_by_label("Email")).to_have_value("grace@example.org")
    expect(form.get_by_label("A short note (optional)")).to_have_value(
        "Terraform and Kubernetes, five years."
    )
    expect(page.get_by_label(re.compile("I agree that RCX keeps my application"))).to_be_checked()
    assert axe_violations(page) == [], page.viewport_size


def test_the_hiring_team_works_a_candidate_and_only_it_gets_the_cv(
    browser, page: Page, live_site: LiveServer
) -> None:
    suffix = uuid.uuid4().hex[:8]
    name = f"Grace Hopper {suffix}"
    apply_in_page(page, name, f"grace-{suffix}@example.org")
    signed_in_member(page, live_site, "hiring")
    page.get_by_role("button", name="DevOps Engineer: Applied").click()
    expect(page.get_by_role("heading", name="DevOps Engineer: Applied")).to_be_visible()
    page.get_by_role("link", name=name).click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()
    cv_link = page.get_by_role("link", name="Open CV")
    cv_path = cv_link.get_attribute("href")
    assert cv_path and re.fullmatch(r"/staff/candidates/\d+/cv", cv_path)
    status, headers, body = _fetch_as(page, live_site, cv_path)
    assert (status, headers["Content-Type"], body) == (200, PDF, cv_files.pdf())
    assert headers["Content-Disposition"].startswith('inline; filename="cv.pdf"')
    assert headers["Cache-Control"] == "no-store"

    page.get_by_label("Move to").select_option("screening")
    page.get_by_role("button", name="Save stage").click()
    expect(page.get_by_role("status").filter(has_text="Moved to")).to_have_text(
        "Moved to Screening."
    )
    page.get_by_role("textbox", name="Note").fill("Strong Kubernetes background; call on Monday.")
    page.get_by_role("button", name="Add note").click()
    history = page.get_by_role("table", name="History")
    expect(history).to_contain_text("Strong Kubernetes background")
    expect(history).to_contain_text("Applied → Screening")
    assert axe_violations(page) == []
    assert ("candidate_cv_downloaded", "CV (PDF)") in _audit(live_site)

    for role in ("sales", "support"):
        with open_tab(browser, live_site) as other:
            signed_in_member(other, live_site, role)
            expect(other.get_by_role("link", name="Candidates")).to_have_count(0)
            other.goto(cv_path.removesuffix("/cv"))
            expect(other.get_by_text("You don't have access to this page.")).to_be_visible()
            status, _, body = _fetch_as(other, live_site, cv_path)
            assert (status, body) == (403, b"You don't have access to this page.")
    # Without a staff session: the sign-in page, never the file.
    status, headers, body = request(live_site.url + cv_path)
    assert (status, headers["Content-Type"].split(";")[0]) == (200, "text/html")
    assert b"%PDF" not in body


def _fetch_as(page: Page, site: LiveServer, path: str) -> tuple[int, Message, bytes]:
    """A GET with the staff cookie `page`'s member holds."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
    return request(site.url + path, headers={"Cookie": cookies})


def _audit(site: LiveServer) -> list[tuple[str, str]]:
    """The site's audit log: (action, detail) of each entry."""
    engine = create_engine(site.database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT action, detail FROM audit_entry")).all()
    finally:
        engine.dispose()
    return [(str(action), str(detail)) for action, detail in rows]
