"""The staff back office behind nginx with several workers on PostgreSQL and Redis."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from rcxsite.content import routes
from tests.support.browser import open_tab
from tests.support.plain_http import request
from tests.support.quotes import add_quotes_on
from tests.support.scaled_site import ScaledSite
from tests.support.staff_ui import signed_in_member


def test_staff_pages_are_served_noindex_by_nginx_and_workers(scaled_site: ScaledSite) -> None:
    for path in (
        routes.STAFF_INBOX.path,
        routes.STAFF_LOG_IN.path,
        routes.staff_quote_path(1),
        routes.staff_customer_path(1),
    ):
        status, headers, body = request(scaled_site.url + path)
        assert status == 200, path  # the pages with an id are the single-page shell
        assert headers["X-Robots-Tag"] == "noindex, nofollow", path
        assert b"<html" in body
    status, headers, _ = request(scaled_site.url + routes.ABOUT.path)
    assert status == 200 and headers["X-Robots-Tag"] is None


def test_a_member_works_a_request_while_each_worker_is_killed(
    browser, scaled_site: ScaledSite
) -> None:
    """Sign-in, the inbox and a request's changes across workers; the staff session (a
    PostgreSQL row) outlives the worker that made it."""
    company = f"Scaled{uuid.uuid4().hex[:6]} Clinics"
    [quote_id] = add_quotes_on(scaled_site, 1, company=company)
    with open_tab(browser, scaled_site) as page:
        signed_in_member(page, scaled_site, "sales")
        page.get_by_label("Search", exact=True).fill(company)
        page.get_by_label("Search", exact=True).press("Enter")
        expect(page.get_by_text("Page 1 of 1 (1 request)")).to_be_visible()
        for index in range(len(scaled_site.worker_pids())):
            scaled_site.wait_for_all_workers()
            scaled_site.kill_worker(index)
            page.goto(routes.staff_quote_path(quote_id))
            expect(page.get_by_role("heading", name="Quote request from Lead 000")).to_be_visible()
            page.get_by_label("Note", exact=True).fill(f"Note while worker {index} was down")
            page.get_by_role("button", name="Add note").click()
            expect(page.get_by_text(f"Note while worker {index} was down")).to_be_visible()
        page.get_by_role("button", name="Sign out").click()
        page.goto(routes.STAFF_INBOX.path)
        page.wait_for_url(re.compile(r"/staff/log-in"))
