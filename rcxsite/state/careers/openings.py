"""The careers page's filters (team, place of work): a link may name them
(/careers?team=DevOps&place=Remote); a value that is not one of the openings' is ignored,
so any event a client sends shows a list the page could show."""

from __future__ import annotations

import reflex as rx

from rcxsite.content.careers import OPENINGS, places, teams
from rcxsite.state.careers import one_of

FILTERS = ("team", "place")


class CareersState(rx.State):
    team: str = ""
    place: str = ""

    @rx.var
    def shown(self) -> list[str]:
        """The slugs of the openings the filters show, in the listed order."""
        return [
            opening.slug
            for opening in OPENINGS
            if self.team in ("", opening.team) and (not self.place or self.place in opening.places)
        ]

    @rx.event
    def load(self) -> None:
        query = self.router.url.query_parameters
        self.team = one_of(query.get("team", ""), teams())
        self.place = one_of(query.get("place", ""), places())

    @rx.event
    def choose(self, name: str, value: str) -> None:
        if name == "team":
            self.team = one_of(value, teams())
        elif name == "place":
            self.place = one_of(value, places())


__all__ = ["FILTERS", "CareersState"]
