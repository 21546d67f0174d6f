"""A part of the bench run alone rewrites only its own section of bench/REPORT.md."""

from __future__ import annotations

import re


def replaced(markdown: str, section: str, pattern: re.Pattern[str]) -> str:
    """`markdown` with the section `pattern` finds replaced by `section`, else with
    `section` added at the end."""
    section = section.rstrip("\n") + "\n"
    if pattern.search(markdown):
        return pattern.sub(lambda _match: section + "\n", markdown, count=1).rstrip("\n") + "\n"
    return markdown.rstrip("\n") + "\n\n" + section
