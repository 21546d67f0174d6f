"""The dashboard's view in its address: what a change writes, a link reads back the same
(a custom period, several filters, a filter on a value the visits lack, the metric), and
what a forged address cannot do."""

from __future__ import annotations

import urllib.parse

import pytest

from rcxsite.state.staff.address import MOVES_KEPT, arrived, moved
from rcxsite.state.staff.analytics import analytics_url, view_from_url


def _read_back(url: str) -> tuple[str, str, str, dict[str, str], str]:
    """What the page load reads from `url`, parsed as Reflex parses an address."""
    return view_from_url(dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query)))


@pytest.mark.parametrize(
    "view",
    [
        ("30d", "", "", {}, "views"),
        ("7d", "", "", {"source": "newsletter", "page": "/pricing?x=1&y"}, "visitors"),
        ("custom", "2026-11-01", "2026-11-10", {"country": ""}, "requests"),
    ],
)
def test_a_view_written_to_the_address_reads_back_the_same(
    view: tuple[str, str, str, dict[str, str], str],
) -> None:
    assert _read_back(analytics_url(*view)) == view


def test_the_plain_address_is_the_last_30_days_and_odd_parameters_fall_back() -> None:
    assert analytics_url("30d", "", "", {}, "views") == "/staff/analytics"
    period, _, _, filters, metric = _read_back("/staff/analytics?metric=secrets&colour=red")
    assert (period, filters, metric) == ("30d", {}, "views")
    # A long value is cut (the dashboard's query then refuses it with its message).
    assert len(_read_back("/staff/analytics?source=" + "a" * 50_000)[3]["source"]) == 2100


def test_pending_moves_absorb_their_own_late_loads_and_stay_bounded() -> None:
    moves = moved(moved([], "/a"), "/b")
    assert arrived(moves, "/c") is None  # a link or Back: shown as it says
    assert arrived(moves, "/a") == ["/b"]
    assert arrived(moves, "/b") == []  # a later move's load: /a's is dropped with it
    many: list[str] = []
    for n in range(3 * MOVES_KEPT):
        many = moved(many, f"/{n}")
    assert len(many) == MOVES_KEPT
