"""An interview booked from the candidate's page at 1280 and 375 px: the hiring member picks
themself as interviewer, is offered their free times and books one; the candidate's and
the interviewer's invitations are parsed back with `icalendar`; the candidate opens the
link in theirs and cancels, and both calendars get the cancellation."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest
from playwright.sync_api import expect

from tests.support.booking_mail import invitation_in, plain_text
from tests.support.browser import DESKTOP, PHONE, axe_violations, open_tab
from tests.support.careers_pages import apply_in_page
from tests.support.live_server import LiveServer
from tests.support.smtp import Mailbox
from tests.support.staff_ui import signed_in_member

INTERVIEW_LINK = re.compile(r"https?://[^\s/]+(/careers/interview/[A-Za-z0-9_-]+)")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_interview_is_booked_invited_and_cancelled_by_the_candidate(
    browser, viewport: dict[str, int], live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    suffix = uuid.uuid4().hex[:8]
    name, email = f"Katherine Johnson {suffix}", f"katherine-{suffix}@example.org"
    with open_tab(browser, live_site, viewport) as page:
        apply_in_page(page, name, email)
        site_mailbox.wait_for(email)  # the application's confirmation
        member = signed_in_member(page, live_site, "hiring")
        page.get_by_role("link", name=name).click()
        expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()

        panel = page.get_by_role("group", name="Interviewers")
        panel.get_by_role("checkbox", name=member.name).check()
        page.get_by_role("button", name="Find free times").click()
        time = page.get_by_label("Time", exact=True)
        expect(time).to_be_visible()
        start = datetime.fromisoformat(time.input_value().replace("Z", "+00:00"))
        assert axe_violations(page) == [], viewport
        page.get_by_role("button", name="Book interview").click()
        expect(page.get_by_role("status").filter(has_text="Interview booked")).to_contain_text(
            f"{name} and each interviewer have their invitation."
        )
        history = page.get_by_role("table", name="History")
        expect(history).to_contain_text("Interview booked: ")
        expect(history).to_contain_text("Applied → Interview")

        mail = site_mailbox.wait_for(email)
        assert mail["Subject"] == "Your interview is booked: DevOps Engineer at RCX"
        invitation = invitation_in(mail)
        assert invitation.method == "REQUEST"
        [event] = invitation.calendar.events
        assert event.start.astimezone(UTC) == start
        assert (event.end - event.start).total_seconds() == 3600
        assert str(event["ATTENDEE"]) == f"mailto:{email}"
        meeting = str(event["LOCATION"])
        assert meeting.startswith("https://")
        link = INTERVIEW_LINK.search(str(event["DESCRIPTION"]))
        assert link is not None and link.group(0) in plain_text(mail)
        [copy] = invitation_in(
            _mail_about(site_mailbox, member.email, "Interview booked")
        ).calendar.events
        assert (copy.uid, copy.start) == (event.uid, event.start)

        with open_tab(browser, live_site, viewport) as candidate:
            candidate.goto(link.group(1))
            expect(candidate.get_by_role("heading", name="Your interview with RCX")).to_be_visible()
            expect(candidate.get_by_text("DevOps Engineer", exact=True)).to_be_visible()
            expect(candidate.get_by_role("link", name=re.compile("Join"))).to_have_attribute(
                "href", meeting
            )
            assert axe_violations(candidate) == [], viewport
            candidate.get_by_role("button", name="Cancel the interview").click()
            candidate.get_by_role("button", name="Yes, cancel the interview").click()
            expect(candidate.get_by_role("status").first).to_contain_text(
                "Your interview is cancelled."
            )

        cancelled = site_mailbox.wait_for(email)
        assert invitation_in(cancelled).method == "CANCEL"
        cancelled_copy = _mail_about(site_mailbox, member.email, "Interview cancelled")
        assert invitation_in(cancelled_copy).method == "CANCEL"
        page.reload()
        expect(page.get_by_text("Cancelled", exact=True)).to_be_visible()


def _mail_about(mailbox: Mailbox, to: str, subject: str) -> EmailMessage:
    """The next mail to `to` whose subject starts with `subject` (a member also gets the
    staff office's own mails)."""
    while True:
        mail = mailbox.wait_for(to)
        if str(mail["Subject"]).startswith(subject):
            return mail
