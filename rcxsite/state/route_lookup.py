"""The page an event comes from, looked up only for a path a browser could have.

Reflex matches every event's `pathname` (the client's to choose) against the page routes
and remembers the last 4,096 answers by path: a client sending long made-up paths would
fill each worker with 4,096 of them (256 MB at 64 KiB each). A path longer than any of
the site's is no page of it; it is answered "404" without being matched or kept.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

import reflex as rx
from reflex.route import get_router

# Far above the longest path of the site (an article's slug, a 43-character token).
PATH_MAX_CHARS = 2_048


class BoundedRouteApp(rx.App):
    """Reflex's app, whose route lookup refuses paths over PATH_MAX_CHARS."""

    @cached_property
    def router(self) -> Callable[[str], str | None]:
        match = get_router(self._page_routes)

        def route(path: str) -> str | None:
            return match(path) if len(path) <= PATH_MAX_CHARS else None

        return route
