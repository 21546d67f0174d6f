"""Site search: no query within the 100 typed characters makes a worker work long.

The limit counts what was typed, but folding can turn one character into several letters
(U+FDF8 into four, "ß" into two) and the typo lookup grows with the square of a word's
length. The work of a query is counted, not timed: Python lines executed while answering
it (a deterministic count, unlike a clock on a shared machine) and the memory it holds at
its peak. The bench (bench/search.py) times the same kind of queries.
"""

from __future__ import annotations

import itertools
import re
import sys
import tracemalloc
import unicodedata
from collections.abc import Iterator
from types import FrameType
from typing import Any

import pytest

from rcxsite.content import routes
from rcxsite.search import QUERY_MAX, SearchInput, SearchResults, search_site
from rcxsite.search.index import site_index
from rcxsite.search.service import PARTIAL, SUGGESTED, no_results
from rcxsite.search.text import fold
from tests.support.rate_limits import reset_rate_limits
from tests.support.site import refresh_settings

# The heaviest ordinary queries (the bench's ten-word one, eight misspelt long words) run
# 10,000 to 20,000 lines; a 100-character query that folds into a 400-letter word ran
# 800,000 before its work was bounded.
LINE_BUDGET = 40_000
MEMORY_BUDGET = 1024 * 1024  # bytes held at once while answering; 75 MiB before
_clients = (f"2001:db8:b0:{n:x}::1" for n in itertools.count(1))
_WORD_CHARACTER = re.compile(r"[^\W_]")  # what the search reads as part of a word


def _longest_foldings() -> tuple[list[str], list[str]]:
    """Word characters by how long they fold, longest first: all of them, and those that
    fold to letters only (those words go through the typo lookup)."""
    found = []
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if (
            (unicodedata.decomposition(char) or char.casefold() != char)
            and _WORD_CHARACTER.fullmatch(char)
            and len(fold(char)) > 1
        ):
            found.append(char)
    found.sort(key=lambda char: (-len(fold(char)), char))
    alphabetic = [char for char in found if fold(char).isalpha()]
    return found, alphabetic


def _adversarial_queries() -> dict[str, str]:
    """Queries of at most QUERY_MAX characters made to cost the most, by name."""
    longest, alphabetic = _longest_foldings()
    most = [char for char in alphabetic if len(fold(char)) == len(fold(alphabetic[0]))]
    queries = {f"U+{ord(char):04X}x100": char * QUERY_MAX for char in longest[:4]}
    for char in most:  # U+FDF8 ("وسلم"), Roman numeral eight ("viii"), ...
        queries[f"U+{ord(char):04X}x100"] = char * QUERY_MAX
        queries[f"U+{ord(char):04X}-joined"] = "-".join([char] * (QUERY_MAX // 2))
    five = most[:7]
    queries |= {
        "mixed": ("".join(most) * QUERY_MAX)[:QUERY_MAX],
        # Eight words of five four-letter ligatures: as long as the site's longest word.
        "8-words-of-20-letters": " ".join(
            "".join(five[(start + n) % len(five)] for n in range(5)) for start in range(8)
        ),
        "sharp-s": "ß" * QUERY_MAX,
        "ffi": "\ufb03" * QUERY_MAX,
        "one-letter": "a" * QUERY_MAX,
        "100-letters": ("abcdefghijklmnopqrstuvwxy" * 4)[:QUERY_MAX],
        "a-a-a": "-".join(["a"] * 50),
        "ab-ab-ab": "-".join(["ab"] * 33) + "a",
        "33-two-letter-words": " ".join(a + b for a in "bcdfg" for b in "bcdfghjklmn")[:QUERY_MAX],
        "4-long-near-misses": " ".join(
            [
                "infrastructureascodexy",
                "antimoneylaunderingxyz",
                "infrastructurexascodex",
                "documentprocessingxyzw",
            ]
        ),
        "7-misspellings": " ".join(
            [
                "infrastructr",
                "documntproces",
                "vulnerabilitis",
                "personalisaton",
                "antimoneylaund",
                "securitycleard",
                "customrsuport",
            ]
        ),
        "ing-ing-ing": "ing" * 33 + "s",
        "sses-sses": "sses" * 25,
    }
    assert all(len(query) <= QUERY_MAX for query in queries.values())
    return queries


ADVERSARIAL = _adversarial_queries()


@pytest.fixture(scope="module", autouse=True)
def _settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """In-memory rate limits and a signing key of the test's own, the index built and one
    search answered before anything is counted."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SECRET_KEY", "test-signing-key-" + "x" * 60)
        patch.setenv("REDIS_URL", "")
        patch.setenv("DATA_DIR", str(tmp_path_factory.mktemp("search-bounds")))
        refresh_settings()
        site_index()
        search_site(SearchInput.parse({"q": "cloud"}), client_ip=next(_clients))
        yield
        reset_rate_limits()
    refresh_settings()


class _OverBudget(Exception):
    pass


def _answer_within_budget(search: SearchInput) -> SearchResults | None:
    """`search_site`'s answer, or None once it has run more than LINE_BUDGET lines of
    Python."""
    count = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
            if count > LINE_BUDGET:
                raise _OverBudget
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        return search_site(search, client_ip=next(_clients))
    except _OverBudget:
        return None
    finally:
        sys.settrace(previous)


def _peak_bytes(search: SearchInput) -> int:
    """The most memory `search_site` held at once above what was held before it."""
    tracing = tracemalloc.is_tracing()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        start = tracemalloc.get_traced_memory()[0]
        search_site(search, client_ip=next(_clients))
        return tracemalloc.get_traced_memory()[1] - start
    finally:
        if not tracing:
            tracemalloc.stop()


@pytest.mark.parametrize("query", ADVERSARIAL.values(), ids=ADVERSARIAL.keys())
def test_a_query_of_100_characters_is_answered_with_bounded_work(query: str) -> None:
    search = SearchInput.parse({"q": query})
    results = _answer_within_budget(search)
    assert results is not None, f"over {LINE_BUDGET:,} lines"
    assert _peak_bytes(search) <= MEMORY_BUDGET
    # Still an answer as any other: the pages found, or why none and where to go.
    if results.hits:
        assert results.message in ("", PARTIAL)
        assert results.total >= len(results.hits)
    else:
        assert results.message == no_results(query)
        assert [s.path for s in results.suggestions] == [route.path for route in SUGGESTED]


def test_an_adversarial_query_still_finds_the_words_it_has() -> None:
    """Cutting a very long word does not cost the other words of the query their pages."""
    results = search_site(
        SearchInput.parse({"q": "healthcare " + "\ufdf8" * 80}), client_ip=next(_clients)
    )
    assert results.hits[0].path == routes.route_for("industry", "healthcare").path
