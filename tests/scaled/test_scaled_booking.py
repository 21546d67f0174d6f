"""Book my call behind nginx, with several workers on PostgreSQL and the job runners
sending the mail: one time is booked once whichever workers the clients reach."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from playwright.sync_api import expect

from rcxsite import booking
from tests.support.booking_mail import invitation_in, plain_text
from tests.support.booking_site import only_host_on, rows_on
from tests.support.booking_ui import (
    MANAGE_LINK,
    api_book,
    fill_booking,
    first_free_time,
    quote_form,
)
from tests.support.browser import PHONE, open_tab
from tests.support.plain_http import request
from tests.support.scaled_site import ScaledSite
from tests.support.smtp import Mailbox

RIVALS = 10


def test_a_time_is_booked_once_across_workers_and_the_buyer_books_another(
    browser, scaled_site: ScaledSite, scaled_mailbox: Mailbox
) -> None:
    run = uuid.uuid4().hex[:6]
    host = f"Sam Scaled {run}"
    host_id = only_host_on(scaled_site, host)
    with open_tab(browser, scaled_site, PHONE) as page:
        form = quote_form(page)
        taken = first_free_time(form)
        email = f"dana.{run}@example.com"
        fill_booking(form, email=email)

        # While the buyer types, ten rivals ask for that very time at once, through nginx
        # to whichever worker: the one host can take it once.
        def rival(number: int) -> int:
            return api_book(scaled_site.url, taken, f"rival{number}.{run}@example.com")[0]

        with ThreadPoolExecutor(RIVALS) as pool:
            statuses = sorted(pool.map(rival, range(RIVALS)))
        assert statuses == [201] + [409] * (RIVALS - 1)

        form.get_by_role("button", name="Book my call").click()
        expect(form.get_by_role("alert")).to_have_text(booking.TAKEN)
        expect(form.get_by_label("Work email")).to_have_value(email)
        booked = first_free_time(form)
        assert booked != taken
        form.get_by_role("button", name="Book my call").click()
        thanks = page.get_by_role("status").filter(has_text="Your call is booked.")
        expect(thanks).to_contain_text(f"Your call with {host} is on")

    held = rows_on(
        scaled_site,
        "SELECT starts_at FROM booking WHERE host_id = :h AND active ORDER BY starts_at",
        h=host_id,
    )
    assert sorted(start.isoformat() for (start,) in held) == sorted(
        datetime.fromisoformat(moment.replace("Z", "+00:00")).isoformat()
        for moment in (taken, booked)
    )

    # The job runners (not the workers) mail the invitation; its link cancels the call.
    mail = scaled_mailbox.wait_for(email, timeout=60)
    [event] = invitation_in(mail).calendar.walk("VEVENT")
    assert event.decoded("DTSTART") == datetime.fromisoformat(booked.replace("Z", "+00:00"))
    link = MANAGE_LINK.search(plain_text(mail))
    assert link is not None
    token = link.group(0).rsplit("/", 1)[-1]
    cancel = scaled_site.url + "/api/v1/Booking/Cancel"
    assert request(cancel, method="POST", body={"token": token})[0] == 200
    assert request(cancel, method="POST", body={"token": token})[0] == 410
