"""The log's redaction: what it hides, what it keeps, and that no text a client chooses
makes it slow."""

from __future__ import annotations

import json
import logging
import threading
from io import StringIO

import pytest

from rcxsite.platform.logs import LOG_RECORD_MAX_CHARS, configure_logging, hide_secrets, redacted

# A run of letters costs the old pattern n² (12,000 letters: 6.7 s here); the patterns
# now take milliseconds for a 64 KiB record. Far above either, so that only a pattern
# that backtracks again fails it, however loaded the machine.
PATHOLOGICAL_BOUND_S = 10
FRAME = 64 * 1024


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{'password': 'hunter2'}", "{'password': '[hidden]'}"),
        ('{"password": "hunter2"}', '{"password": "[hidden]"}'),
        ('"{\\"password\\": \\"hunter2\\"}"', '"{\\"password\\": \\"[hidden]\\"}"'),
        ('[["password", "hunter2"]]', '[["password", "[hidden]"]]'),
        ("newPassword='hunter2'", "newPassword='[hidden]'"),
        ('resetTocken="hunter2"', 'resetTocken="[hidden]"'),
        ('{"Authorization": "Bearer abc"}', '{"Authorization": "[hidden]"}'),
        ("Bearer eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl", "Bearer [hidden]"),
        ("url?token%3DeyJhbGciOi.eyJzdWIi.c2ln", "url?token%[hidden]"),
        ("%22eyJhbGciOi.eyJzdWIi.c2ln%22", "%[hidden]%22"),
        ('x "pass": "a\\"b" y', 'x "pass": "[hidden]" y'),
        # A value the record cut before its closing quote is hidden to the end of its line.
        ('{"password": "hunt', '{"password": "[hidden]"'),
    ],
)
def test_secret_values_are_hidden(text: str, expected: str) -> None:
    assert redacted(text) == expected


def test_what_names_no_secret_is_kept() -> None:
    text = "{'email': 'a@b.c', 'country': 'NZ', 'heyJude': 'hey.b.c', 'note': 'a:b'}"
    assert redacted(text) == text


def test_a_long_record_is_cut_and_says_so() -> None:
    text = redacted("x" * (LOG_RECORD_MAX_CHARS + 500))
    assert text == "x" * LOG_RECORD_MAX_CHARS + "... [500 more characters cut]"


@pytest.mark.parametrize(
    "fill",
    [
        "a",
        "password",
        "pass ",
        "eyJ",
        'password:"',
        "\\'password\\':",
        "a:'",
        "x" * 50 + "password",
        'TypeError: can\'t access property "", ',
        "lorem passwordy tokenish_secret eyJab ipsum Authorization_x ",
    ],
)
def test_no_frame_of_text_makes_redaction_slow(fill: str) -> None:
    text = fill * (FRAME // len(fill))
    done = threading.Event()
    # The patterns themselves, on the whole frame: `redacted` would cut it to 16,000 first.
    worker = threading.Thread(target=lambda: (hide_secrets(text), done.set()), daemon=True)
    worker.start()
    assert done.wait(PATHOLOGICAL_BOUND_S), f"redacting 64 KiB of {fill!r} backtracks"


def test_a_record_is_one_json_line() -> None:
    stream = StringIO()
    configure_logging(stream=stream)
    logging.getLogger("rcxsite.test").warning("two\nlines %s", "{'token': 'abc'}")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["message"] == "two\nlines {'token': '[hidden]'}"
