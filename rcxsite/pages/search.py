"""/search: the search box again, then the results with their matching words marked."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.react import nav_link
from rcxsite.components.search_box import search_box
from rcxsite.content import routes
from rcxsite.state.search import HitView, LinkView, SearchState, SegmentView


def _segment(segment: SegmentView) -> rx.Component:
    return rx.cond(segment["mark"], rx.el.mark(segment["text"]), rx.fragment(segment["text"]))


def _hit(hit: HitView) -> rx.Component:
    return rx.el.li(
        rx.el.h2(
            nav_link(hit["title"], to=hit["path"], class_name="search-hit-link"),
            class_name="search-hit-title",
        ),
        rx.el.p(hit["kind"], class_name="search-hit-kind"),
        rx.el.p(rx.foreach(hit["segments"], _segment), class_name="search-hit-snippet"),
        class_name="search-hit",
    )


def _suggestion(link: LinkView) -> rx.Component:
    return rx.el.li(nav_link(link["title"], to=link["path"]))


def search_page(route: routes.Route) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h1(route.title, class_name="search-heading"),
            search_box(
                landmark="Search page",
                class_name="search-page-form",
                button="Search",
                label_class="field-label",
                placeholder="",
                default_value=SearchState.query,
                # Remounted with the query the page was loaded with (the field is not
                # controlled: typing costs no server round trip).
                key=SearchState.query,
            ),
            # Read out when the answer arrives: the count, or why there is none.
            rx.el.div(
                rx.cond(SearchState.summary != "", rx.el.p(SearchState.summary)),
                rx.cond(
                    SearchState.message != "",
                    rx.el.p(
                        SearchState.message,
                        class_name=rx.cond(
                            SearchState.refused, "field-error search-message", "search-message"
                        ),
                    ),
                ),
                role="status",
                class_name="search-status",
            ),
            rx.cond(
                SearchState.hits.length() > 0,
                rx.el.ol(rx.foreach(SearchState.hits, _hit), class_name="search-results"),
            ),
            rx.cond(
                SearchState.suggestions.length() > 0,
                rx.el.ul(
                    rx.foreach(SearchState.suggestions, _suggestion),
                    class_name="search-suggestions",
                    aria_label="Suggested pages",
                ),
            ),
            class_name="page-width",
        ),
        class_name="section search-page",
    )


ON_LOAD: dict[routes.RouteKind, list[rx.EventHandler]] = {"search": [SearchState.load]}
