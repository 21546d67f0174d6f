"""What the back office shows of a time (the member's own clock, its zone named) and the
request page's `mailto:` and `tel:` links, built from what a visitor typed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rcxsite.core.working_week import CALL_TIMEZONE
from rcxsite.state.staff.display import mailto_href, tel_href, when

MOMENT = datetime(2026, 11, 26, 14, 5, tzinfo=UTC)
SUMMER = datetime(2026, 7, 1, 23, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("moment", "zone", "shown"),
    [
        (MOMENT, "Europe/London", "26 Nov 2026, 14:05 (Europe/London)"),
        (MOMENT, "Asia/Kolkata", "26 Nov 2026, 19:35 (Asia/Kolkata)"),
        (MOMENT, "America/New_York", "26 Nov 2026, 09:05 (America/New_York)"),
        (MOMENT, "UTC", "26 Nov 2026, 14:05 (UTC)"),
        # Summer time, and a day later on the member's calendar.
        (SUMMER, "Europe/London", "02 Jul 2026, 00:30 (Europe/London)"),
        (SUMMER, "Pacific/Kiritimati", "02 Jul 2026, 13:30 (Pacific/Kiritimati)"),
    ],
)
def test_a_time_is_on_the_members_clock_with_the_zone_named(
    moment: datetime, zone: str, shown: str
) -> None:
    assert when(moment, zone) == shown


@pytest.mark.parametrize("zone", ["", "Mars/Olympus_Mons", "../../etc/passwd", "Europe/"])
def test_no_zone_or_an_unknown_one_is_the_companys(zone: str) -> None:
    assert CALL_TIMEZONE == "Europe/London"
    assert when(MOMENT, zone) == "26 Nov 2026, 14:05 (Europe/London)"


def test_no_time_says_never_or_what_the_caller_says() -> None:
    assert when(None, "Asia/Kolkata") == "Never"
    assert when(None, "Asia/Kolkata", never="Not mailed") == "Not mailed"


@pytest.mark.parametrize(
    ("email", "href"),
    [
        ("alice@client.example", "mailto:alice@client.example"),
        ("  alice@client.example ", "mailto:alice@client.example"),
        ("o'neil+quotes@client.example", "mailto:o%27neil%2Bquotes@client.example"),
        # What a visitor types cannot add recipients or headers, nor leave the scheme.
        ("a@b.example?subject=Hi&body=x", "mailto:a@b.example%3Fsubject%3DHi%26body%3Dx"),
        ("a@b.example?bcc=all@rcx.example", ""),
        ("a@b.example\r\nBcc: x@y.example", ""),
        ("a@b.example\nBcc: x", ""),
        ("a b@client.example", ""),
        ("javascript:alert(1)//@x.example", "mailto:javascript%3Aalert%281%29%2F%2F@x.example"),
        ("jörg@bäcker.example", "mailto:j%C3%B6rg@b%C3%A4cker.example"),
        ("not an address", ""),
        ("@client.example", ""),
        ("alice@", ""),
        ("", ""),
    ],
)
def test_mailto_links(email: str, href: str) -> None:
    assert mailto_href(email) == href


@pytest.mark.parametrize(
    ("phone", "href"),
    [
        ("+44 20 7946 0000", "tel:+442079460000"),
        ("(020) 7946-0000", "tel:02079460000"),
        (" +1 (555) 010-0199 ", "tel:+15550100199"),
        ("0049 30 1234567", "tel:0049301234567"),
        # What the quote form would not take as a number is shown without a link.
        ("44+20", ""),
        ("++44 20", ""),
        ("+٤٤ 20", ""),
        ("020 7946 0000 ext. 12", ""),
        ("javascript:alert(1)", ""),
        ("call me", ""),
        ("+", ""),
        ("", ""),
    ],
)
def test_tel_links_keep_the_digits_and_a_leading_plus(phone: str, href: str) -> None:
    assert tel_href(phone) == href
