"""A page's error report: Reflex's reload check, found without backtracking, and the
route lookup that keeps no made-up path."""

from __future__ import annotations

import re

import pytest

from rcxsite.rcxsite import app
from rcxsite.state.frontend_errors import RELOAD_ON_ERRORS
from rcxsite.state.route_lookup import PATH_MAX_CHARS

# Reflex 0.10.1's own patterns, which the linear check stands in for.
REFLEX_PATTERNS = [
    re.compile(re.escape("TypeError: Cannot read properties of null")),
    re.compile(re.escape("TypeError: null is not an object")),
    re.compile(r"TypeError: can't access property \".*\" of null"),
    re.compile(
        re.escape("TypeError: can't access property \"")
        + r".*"
        + re.escape('", ')
        + r".*"
        + re.escape(" is null")
    ),
]
REPORTS = [
    "TypeError: Cannot read properties of null (reading 'x')",
    "Uncaught TypeError: null is not an object (evaluating 'a.b')",
    'TypeError: can\'t access property "style" of null',
    'TypeError: can\'t access property "x", el is null',
    'TypeError: can\'t access property "x", el\n is null',  # not on one line: no reload
    'TypeError: can\'t access property "x" of undefined',
    'TypeError: can\'t access property "", ' * 50,
    "ReferenceError: x is not defined",
    "",
]


@pytest.mark.parametrize("report", REPORTS)
def test_the_reload_check_answers_as_reflexs_patterns(report: str) -> None:
    for ours, reflexs in zip(RELOAD_ON_ERRORS, REFLEX_PATTERNS, strict=True):
        assert ours.search(report) == bool(reflexs.search(report)), (report, reflexs.pattern)


def test_the_app_uses_the_linear_check() -> None:
    from reflex.state import FrontendEventExceptionState

    assert FrontendEventExceptionState.auto_reload_on_errors is RELOAD_ON_ERRORS


def test_a_path_longer_than_any_page_is_no_page() -> None:
    assert app.router("/about") == "about"
    assert app.router("/" + "a" * (PATH_MAX_CHARS + 1)) is None
