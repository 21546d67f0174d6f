"""/search: a thin adapter over `rcxsite.search`, fed by the address's `?q=`.

The header's search box is a plain form (no state, no script): it loads /search?q=...,
and this state's on_load reads the query from the address, asks the service and keeps
what the page shows. Segments stay text: the page wraps the highlighted ones in <mark>.
"""

from __future__ import annotations

from typing import TypedDict

import reflex as rx

from rcxsite import search
from rcxsite.state.service_calls import FormCall


class SegmentView(TypedDict):
    text: str
    mark: bool


class HitView(TypedDict):
    path: str
    title: str
    kind: str
    segments: list[SegmentView]


class LinkView(TypedDict):
    title: str
    path: str


def _hit(hit: search.Hit) -> HitView:
    return {
        "path": hit.path,
        "title": hit.title,
        "kind": hit.kind,
        "segments": [{"text": part.text, "mark": part.highlighted} for part in hit.snippet],
    }


class SearchState(rx.State):
    query: str = ""
    hits: list[HitView] = []
    suggestions: list[LinkView] = []
    # What the service said about the query (no results, only some words matched) or,
    # with `refused`, why it did not answer (too long, too many searches).
    message: str = ""
    refused: bool = False
    answered: bool = False
    total: int = 0
    spelled: str = ""

    @rx.var
    def summary(self) -> str:
        """The count above the results, read out when it changes."""
        if not self.answered or self.refused or not self.hits:
            return ""
        count = f"{self.total} {'page matches' if self.total == 1 else 'pages match'}"
        words = (
            f"“{self.spelled}” (the closest spelling to “{self.query}”)"
            if self.spelled
            else f"“{self.query}”"
        )
        shown = f", the best {len(self.hits)} are shown" if self.total > len(self.hits) else ""
        return f"{count} {words}{shown}."

    @rx.event
    async def load(self):
        """on_load of /search."""
        # One character over the limit is enough to be refused with the limit's message;
        # the rest of an oversized query is never copied or parsed.
        raw = self.router.url.query_parameters.get(search.QUERY_FIELD, "")[: search.QUERY_MAX + 1]
        call = await FormCall.read(search.SearchInput, {search.QUERY_FIELD: raw})
        outcome = await call.send(search.search_site, client_ip=self.router.session.client_ip)
        self.answered = True
        if not outcome.ok:
            self.query = raw[: search.QUERY_MAX]
            self.hits, self.suggestions, self.total, self.spelled = [], [], 0, ""
            self.message, self.refused = outcome.message(), True
            return
        results = outcome.result()
        self.query = results.query
        self.hits, self.total = [_hit(hit) for hit in results.hits], results.total
        self.spelled = results.spelled
        self.suggestions = [
            {"title": item.title, "path": item.path} for item in results.suggestions
        ]
        self.message, self.refused = results.message, False
