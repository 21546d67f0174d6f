"""Where a visitor came from, as the quote, booking and registration services save it on
their rows. The analytics feature works it out from the tab's page views; the services
below it only store what they are given."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from rcxsite.models.analytics import PATH_MAX, UTM_MAX, Attributed

DIRECT = "Direct"
Row = TypeVar("Row", bound=Attributed)


@dataclass(frozen=True, slots=True)
class Touch:
    """One arrival: what brought the visitor (source, medium, campaign) and to which page."""

    source: str = DIRECT
    medium: str = ""
    campaign: str = ""
    landing_page: str = ""

    @property
    def direct(self) -> bool:
        return self.source == DIRECT


@dataclass(frozen=True, slots=True)
class Attribution:
    """The tab's first touch and its latest one that was not direct."""

    first: Touch
    last: Touch | None = None

    def columns(self) -> dict[str, str]:
        """The values of an `Attributed` row's columns."""
        last = self.last or Touch(source="")
        return {
            "source": self.first.source[:UTM_MAX],
            "medium": self.first.medium[:UTM_MAX],
            "campaign": self.first.campaign[:UTM_MAX],
            "landing_page": self.first.landing_page[:PATH_MAX],
            "last_source": last.source[:UTM_MAX],
            "last_medium": last.medium[:UTM_MAX],
            "last_campaign": last.campaign[:UTM_MAX],
        }


def stamped(row: Row, attribution: Attribution | None) -> Row:
    """`row` with where its sender came from (left empty for none)."""
    if attribution is not None:
        for column, value in attribution.columns().items():
            setattr(row, column, value)
    return row


def source_text(row: Attributed) -> str:
    """ "newsletter (email)", and the latest other source when there was one: "newsletter
    (email); latest: Google (organic)"; "" for a row from no counted tab."""

    def named(source: str, medium: str) -> str:
        return f"{source} ({medium})" if source and medium else source

    first = named(row.source, row.medium)
    last = named(row.last_source, row.last_medium)
    return f"{first}; latest: {last}" if last and last != first else first
