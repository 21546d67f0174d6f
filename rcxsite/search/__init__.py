"""Site search: every public page, found by its title, description and text.

Framework-free: `documents` makes one document per public page from the route table and
the content data, `index` builds the in-memory index once per process, `query` ranks
pages and cuts snippets, `service` bounds and rate-limits the query. The /search page
(rcxsite/pages/search.py) calls `search_site` through its state.
"""

from rcxsite.search.query import Hit, Segment
from rcxsite.search.service import (
    QUERY_FIELD,
    QUERY_MAX,
    SearchInput,
    SearchResults,
    Suggestion,
    search_site,
)

__all__ = [
    "QUERY_FIELD",
    "QUERY_MAX",
    "Hit",
    "SearchInput",
    "SearchResults",
    "Segment",
    "Suggestion",
    "search_site",
]
