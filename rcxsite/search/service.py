"""Site search as a service: the bounded input, the per-client limit, the answer's texts.

Framework-free and synchronous: the /search page's state calls `search_site` through
`asyncio.to_thread`. It takes a parsed `SearchInput` (at most QUERY_MAX characters,
refused with QUERY_TOO_LONG) and returns `SearchResults`, or raises `ServiceError` (422
for an invalid query, `RateLimited` 429 past SEARCH_LIMIT per client address).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field, field_validator

from rcxsite.content import routes
from rcxsite.core.forms import (
    INVALID_CHARACTERS,
    FormInput,
    has_forbidden_characters,
    problem,
    text_only,
)
from rcxsite.core.ratelimit import Limit, client_key, hit
from rcxsite.platform.settings import get_settings
from rcxsite.search.index import site_index
from rcxsite.search.query import Hit, find

QUERY_FIELD = "q"
QUERY_MAX = 100
QUERY_TOO_LONG = f"Please search for at most {QUERY_MAX} characters."
EMPTY_QUERY = "Type a word or two to search the site, or start from one of these pages."
PARTIAL = "No page matches every word; these pages match some of them."
_LIMIT_SCOPE = "site-search"
# Offered when a query finds nothing: where most visitors go next.
SUGGESTED = (
    routes.SERVICES_INDEX,
    routes.CASE_STUDIES_INDEX,
    routes.BLOGS,
    routes.ABOUT,
    routes.QUOTE,
)


def no_results(query: str) -> str:
    return (
        f"Nothing on the site matches “{query}”. Check the spelling, try fewer or "
        "other words, or start from one of these pages."
    )


class SearchInput(FormInput):
    """The search box (`?q=`): blanks collapsed; control characters are refused."""

    too_long_messages = {"query": QUERY_TOO_LONG}

    query: str = Field("", alias=QUERY_FIELD, max_length=QUERY_MAX)

    _text_only = text_only("query")

    @field_validator("query")
    @classmethod
    def _one_line(cls, value: str) -> str:
        # The browser turns a pasted line break into a space; a URL can carry anything.
        if has_forbidden_characters(value, allowed="\t\n\r"):
            raise problem(INVALID_CHARACTERS)
        return " ".join(value.split())


@dataclass(frozen=True, slots=True)
class Suggestion:
    title: str
    path: str


@dataclass(frozen=True, slots=True)
class SearchResults:
    """`message` says what the visitor sees above the hits ("" for a plain list of
    results); `suggestions` are offered when there are no hits; `total` counts the pages
    that matched, `hits` are the best of them; `spelled` is the query as the site spells
    its words, when that differs ("helthcare": "healthcare")."""

    query: str
    hits: tuple[Hit, ...]
    message: str = ""
    suggestions: tuple[Suggestion, ...] = ()
    total: int = 0
    spelled: str = ""


def _suggestions() -> tuple[Suggestion, ...]:
    return tuple(Suggestion(route.text, route.path) for route in SUGGESTED)


def search_site(search: SearchInput, *, client_ip: str) -> SearchResults:
    """The site's pages matching the query, best first. An empty query costs nothing and
    counts against no limit; any other counts against SEARCH_LIMIT for the client."""
    if not search.query:
        return SearchResults("", (), EMPTY_QUERY, _suggestions())
    hit(Limit(get_settings().search_limit, _LIMIT_SCOPE, client_key(client_ip)))
    matches = find(search.query, site_index())
    if not matches.hits:
        return SearchResults(search.query, (), no_results(search.query), _suggestions())
    return SearchResults(
        search.query,
        matches.hits,
        "" if matches.every_word else PARTIAL,
        total=matches.total,
        spelled=matches.spelled,
    )
