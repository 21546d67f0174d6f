"""Mail and jobs in the staff office (admins): what waits and what failed, with its error,
and "Retry", at both widths (who else may call its handlers: the permission matrix)."""

from __future__ import annotations

import uuid

from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, text

from rcxsite.content import routes
from tests.support.browser import PHONE, axe_violations
from tests.support.csp import watch_csp
from tests.support.live_server import LiveServer
from tests.support.staff_ui import signed_in_member

_FAILED_MAIL = text(
    "INSERT INTO job (kind, ref, payload, state, due_at, attempts, claimed_by, last_error,"
    " created_at, finished_at) VALUES ('mail', :ref, '', 'failed', :now, 9, '', :error,"
    " :now, :now)"
)


def _failed_mail(site: LiveServer) -> tuple[int, str]:
    """A mail the site gave up on (as after a day of a refused mail server): its id and
    error."""
    error = f"SMTPRecipientsRefused: 550 no such user {uuid.uuid4().hex[:6]}"
    engine = create_engine(site.database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                _FAILED_MAIL, {"ref": "", "error": error, "now": "2026-11-24 09:00:00.000000"}
            )
            job_id = connection.execute(text("SELECT max(id) FROM job")).scalar_one()
    finally:
        engine.dispose()
    return int(job_id), error


def test_an_admin_sees_a_failed_mail_and_retries_it(page: Page, live_site: LiveServer) -> None:
    csp = watch_csp(page)
    job_id, error = _failed_mail(live_site)
    signed_in_member(page, live_site, "admin")
    page.get_by_role("link", name="Mail and jobs").click()
    expect(page.get_by_role("heading", name="Mail and jobs")).to_be_visible()
    failed = page.get_by_role("table", name="Failed").locator("tbody tr")
    row = failed.filter(has_text=error)
    expect(row).to_have_count(1)
    expect(row).to_contain_text(f"#{job_id}")
    expect(page.get_by_role("table", name="Waiting and failed, by kind")).to_contain_text("mail")
    assert axe_violations(page) == []
    row.get_by_role("button", name=f"Retry job {job_id}").click()
    expect(page.get_by_role("status")).to_have_text(f"Job #{job_id} is queued again.")
    expect(failed.filter(has_text=error)).to_have_count(0)
    page.goto(routes.STAFF_AUDIT.path)
    expect(
        page.get_by_role("table", name="Audit entries")
        .locator("tbody tr")
        .filter(has_text=f"job {job_id}")
        .first
    ).to_contain_text("Job retried")
    assert csp == []

    # The same member on a phone (the screen is the same state; sales are refused the
    # page's handlers in the permission matrix).
    page.set_viewport_size(PHONE)
    page.goto(routes.STAFF_JOBS.path)
    expect(page.get_by_role("heading", name="Mail and jobs")).to_be_visible()
    expect(page.get_by_role("table", name="Waiting and failed, by kind")).to_be_visible()
    assert axe_violations(page) == []
