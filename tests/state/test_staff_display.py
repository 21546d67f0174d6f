"""What the staff screens make of what buyers typed: links that cannot be turned into
something else."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from rcxsite.state.staff.display import reply_href


def test_reply_fills_in_the_subject_and_greeting_and_nothing_typed_adds_a_header() -> None:
    href = reply_href(
        "dana@example.com",
        subject="Your quote request to RCX: Web Development",
        greeting="Hello Dana&bcc=eve@example.com\r\nBcc: eve@example.com,",
    )
    parts = urlsplit(href)
    assert (parts.scheme, parts.path) == ("mailto", "dana@example.com")
    fields = parse_qs(parts.query)
    assert set(fields) == {"subject", "body"}
    assert fields["subject"] == ["Your quote request to RCX: Web Development"]
    assert fields["body"][0].startswith("Hello Dana&bcc=eve@example.com")
    assert reply_href("not an address", subject="s", greeting="g") == ""
