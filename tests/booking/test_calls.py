"""My calls (the calls to come, by day) and the member's private calendar feed: its
content, its secret URL over HTTP, the old URL that stops working on "Regenerate", and the
URL that ends for good when its member loses the calls (demoted, disabled, two-factor
sign-in and password reset)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from icalendar import Calendar

from rcxsite.booking import calls
from rcxsite.content.routes import staff_quote_path
from rcxsite.core.permissions import NO_ACCESS, OPERATOR, StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import QuoteRequest, StaffMember
from rcxsite.platform.settings import get_settings
from rcxsite.staff import members
from rcxsite.staff.__main__ import main as command_line
from rcxsite.staff.inputs import RoleInput
from rcxsite.web import calendar_feed
from rcxsite.web.server import server
from tests.support.booking import KOLKATA, MONDAY, NOW, add_booking, at, stored_booking
from tests.support.rows import change_row
from tests.support.staff import add_member, audit_entries, enrol


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(server, raise_server_exceptions=True) as test_client:
        yield test_client


def _sales(name: str = "Sam Sales", *, time_zone: str = "") -> StaffActor:
    email = f"{name.lower().replace(' ', '.')}@rcx.example"
    return add_member(name, email, "sales", time_zone=time_zone)


def _company_of(booking_id: int, company: str) -> int:
    """Names the company of the booking's request; the request's id."""
    request_id = stored_booking(booking_id).quote_request_id
    change_row(QuoteRequest, request_id, company=company)
    return request_id


def _token(url: str) -> str:
    prefix = f"{get_settings().site_url}/staff/calendar/"
    assert url.startswith(prefix) and url.endswith(".ics")
    return url.removeprefix(prefix).removesuffix(".ics")


def _disable(member_id: int) -> None:
    change_row(StaffMember, member_id, disabled_at=NOW)


def _role(name: str) -> RoleInput:
    return RoleInput.parse({"role": name})


def _feed_status(client: TestClient, token: str) -> int:
    return client.get(f"{calls.FEED_PATH}/{token}{calls.FEED_SUFFIX}").status_code


def test_my_calls_lists_the_calls_to_come_by_day_on_the_members_clock() -> None:
    sam, kim = _sales(time_zone=KOLKATA), _sales("Kim Sales")
    monday_late = add_booking(sam.member_id, at(MONDAY, "17:30"))  # 23:00 in Kolkata
    tuesday = add_booking(sam.member_id, at(MONDAY + timedelta(days=1), "09:00"))
    request_id = _company_of(tuesday, "Globex Ltd")
    add_booking(sam.member_id, at(MONDAY, "10:00"), status="cancelled")
    add_booking(sam.member_id, NOW - timedelta(hours=2))  # over already
    add_booking(sam.member_id, NOW + timedelta(days=62))  # beyond the list's 60 days
    add_booking(kim.member_id, at(MONDAY, "11:00"))  # someone else's
    shown = calls.upcoming_calls(actor=sam, now=NOW)
    assert shown.time_zone == KOLKATA
    assert [(day.label, [call.time for call in day.calls]) for day in shown.days] == [
        ("Monday 1 March 2027", ["23:00–23:30"]),
        ("Tuesday 2 March 2027", ["14:30–15:00"]),
    ]
    call = shown.days[1].calls[0]
    assert (call.visitor_name, call.company, call.status, call.staff_path) == (
        "Earlier Visitor",
        "Globex Ltd",
        "Booked",
        staff_quote_path(request_id),
    )
    assert shown.days[0].calls[0].booking_id == monday_late
    assert shown.total == 2 and not shown.has_feed
    # A call under way is still listed.
    assert calls.upcoming_calls(actor=sam, now=at(MONDAY, "17:45")).total == 2


def test_an_admin_sees_every_members_calls_others_only_their_own() -> None:
    sam, kim = _sales(), _sales("Kim Sales")
    admin = add_member("Ada Admin", "ada@rcx.example", "admin")
    support = add_member("Sue Support", "sue@rcx.example", "support")
    add_booking(sam.member_id, at(MONDAY, "10:00"))
    add_booking(kim.member_id, at(MONDAY, "11:00"))
    everyone = calls.upcoming_calls(actor=admin, now=NOW)
    assert [c.host_name for day in everyone.days for c in day.calls] == ["Sam Sales", "Kim Sales"]
    only_kim = calls.upcoming_calls(actor=admin, member_id=kim.member_id, now=NOW)
    assert [c.host_name for day in only_kim.days for c in day.calls] == ["Kim Sales"]
    for actor, member_id in ((sam, kim.member_id), (support, None)):
        with pytest.raises(ServiceError) as refused:
            calls.upcoming_calls(actor=actor, member_id=member_id, now=NOW)
        assert (refused.value.status, refused.value.message) == (403, NO_ACCESS)


def test_the_feed_holds_the_members_calls_and_no_manage_link() -> None:
    sam, kim = _sales(), _sales("Kim Sales")
    booked = add_booking(sam.member_id, at(MONDAY, "10:00"))
    request_id = _company_of(booked, "Globex Ltd")
    add_booking(sam.member_id, at(MONDAY, "12:00"), status="cancelled")
    add_booking(sam.member_id, NOW - timedelta(days=31))
    add_booking(kim.member_id, at(MONDAY, "11:00"))
    url = calls.regenerate_feed(actor=sam)
    ics = calls.feed_ics(_token(url), now=NOW)
    assert ics is not None
    calendar = Calendar.from_ical(ics)
    assert calendar.errors == [] and calendar.get_missing_tzids() == set()
    assert str(calendar["X-WR-CALNAME"]) == "RCX calls"
    assert "METHOD" not in calendar
    [event] = calendar.walk("VEVENT")
    row = stored_booking(booked)
    assert str(event["UID"]) == row.uid
    assert int(event["SEQUENCE"]) == 0
    assert event.decoded("DTSTART") == datetime(2027, 3, 1, 10, 0, tzinfo=UTC)
    assert "DTSTART:20270301T100000Z" in ics and "DTEND:20270301T103000Z" in ics
    assert str(event["SUMMARY"]) == "Call: Earlier Visitor (Globex Ltd)"
    link = f"{get_settings().site_url}{staff_quote_path(request_id)}"
    assert link in str(event["DESCRIPTION"])
    assert "/booking/" not in ics
    [entry] = [e for e in audit_entries() if e.action.startswith("calendar_feed")]
    assert (entry.action, entry.target) == ("calendar_feed_created", "member sam.sales@rcx.example")


def test_regenerating_the_feed_stops_the_old_url() -> None:
    sam = _sales()
    add_booking(sam.member_id, at(MONDAY, "10:00"))
    first = _token(calls.regenerate_feed(actor=sam))
    second = _token(calls.regenerate_feed(actor=sam))
    assert first != second
    assert calls.feed_ics(first, now=NOW) is None
    assert calls.feed_ics(second, now=NOW) is not None
    assert calls.upcoming_calls(actor=sam, now=NOW).has_feed
    assert [e.action for e in audit_entries()] == [
        "calendar_feed_created",
        "calendar_feed_regenerated",
    ]


def test_a_disabled_members_feed_and_unknown_tokens_give_nothing() -> None:
    sam = _sales()
    token = _token(calls.regenerate_feed(actor=sam))
    for unknown in ("", "x" * 43, "é" * 10, "a" * 300):
        assert calls.feed_ics(unknown, now=NOW) is None
    _disable(sam.member_id)
    assert calls.feed_ics(token, now=NOW) is None


def test_only_members_who_take_calls_have_a_feed() -> None:
    support = add_member("Sue Support", "sue@rcx.example", "support")
    with pytest.raises(ServiceError) as refused:
        calls.regenerate_feed(actor=support)
    assert refused.value.status == 403


def test_the_feed_over_http(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    sam = _sales()
    soon = datetime.now(UTC).replace(microsecond=0) + timedelta(days=2)
    add_booking(sam.member_id, soon)
    token = _token(calls.regenerate_feed(actor=sam))
    answer = client.get(f"/staff/calendar/{token}.ics")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/calendar; charset=utf-8"
    assert answer.headers["cache-control"] == "private, max-age=300"
    assert answer.headers["x-robots-tag"] == "noindex, nofollow"
    assert answer.text.startswith("BEGIN:VCALENDAR\r\n")
    assert f"DTSTART:{soon:%Y%m%dT%H%M%S}Z" in answer.text
    missing = client.get(f"/staff/calendar/{token[:-1]}.ics")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("text/plain")
    assert "BEGIN:VCALENDAR" not in missing.text
    assert client.get("/staff/calendar/.ics").status_code == 404
    calls.regenerate_feed(actor=sam)
    assert client.get(f"/staff/calendar/{token}.ics").status_code == 404
    _disable(sam.member_id)
    # The site's log (the test client's own request lines aside) never holds the token.
    site = [r for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    assert [r.getMessage() for r in site if token in r.getMessage()] == []


def test_the_feed_is_rate_limited_per_client_address(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(calendar_feed, "FEED_LIMIT", "2 per minute")
    sam = _sales()
    token = _token(calls.regenerate_feed(actor=sam))
    assert [client.get(f"/staff/calendar/{token}.ics").status_code for _ in range(2)] == [200, 200]
    refused = client.get(f"/staff/calendar/{token}.ics")
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) > 0
    assert refused.text.startswith("Too many requests.")


def test_the_feed_is_served_only_while_its_members_role_takes_calls() -> None:
    """Checked as the feed is served, whatever changed the row."""
    sam = _sales()
    token = _token(calls.regenerate_feed(actor=sam))
    change_row(StaffMember, sam.member_id, role="support")
    assert calls.feed_ics(token, now=NOW) is None
    change_row(StaffMember, sam.member_id, role="admin")
    assert calls.feed_ics(token, now=NOW) is not None


def test_demotion_to_a_role_without_calls_ends_the_feed_for_good(client: TestClient) -> None:
    sam = _sales()
    token = _token(calls.regenerate_feed(actor=sam))
    members.change_role(_role("support"), actor=OPERATOR, member_id=sam.member_id)
    assert _feed_status(client, token) == 404
    # Promoted again, the member makes a new address: the old one may have got out.
    members.change_role(_role("sales"), actor=OPERATOR, member_id=sam.member_id)
    assert _feed_status(client, token) == 404
    assert not calls.upcoming_calls(actor=sam, now=NOW).has_feed
    assert _feed_status(client, _token(calls.regenerate_feed(actor=sam))) == 200


def test_a_role_that_still_takes_calls_keeps_the_feed(client: TestClient) -> None:
    ada = add_member("Ada Admin", "ada@rcx.example", "admin")
    token = _token(calls.regenerate_feed(actor=ada))
    members.change_role(_role("sales"), actor=OPERATOR, member_id=ada.member_id)
    assert _feed_status(client, token) == 200


def test_disabling_ends_the_feed_for_good(client: TestClient) -> None:
    sam = _sales()
    token = _token(calls.regenerate_feed(actor=sam))
    members.set_disabled(actor=OPERATOR, member_id=sam.member_id, disabled=True)
    assert _feed_status(client, token) == 404
    members.set_disabled(actor=OPERATOR, member_id=sam.member_id, disabled=False)
    assert _feed_status(client, token) == 404


def test_a_two_factor_and_password_reset_ends_the_feed_for_good(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """`reset-2fa` is also how a member's password is reset: it clears the password, and
    the invitation it prints has them choose another."""
    sam = _sales()
    token = _token(calls.regenerate_feed(actor=sam))
    assert command_line(["reset-2fa", sam.email]) == 0
    assert _feed_status(client, token) == 404
    link = capsys.readouterr().out.strip().splitlines()[-1]
    enrol(link.rsplit("/", 1)[-1])
    assert _feed_status(client, token) == 404
