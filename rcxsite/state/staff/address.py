"""A screen whose view lives in its address (the inbox's filter, the dashboard's period):
a change moves the tab to the new address with a new history entry, so a link opens that
view and Back undoes it. The move's own page load then has nothing new to read, and one
that arrives after a later change (people click faster than a browser moves) must not
undo that change: the addresses moved to are kept until their loads come."""

from __future__ import annotations

# How many moves a tab may be ahead of its page loads.
MOVES_KEPT = 8


def moved(moves: list[str], url: str) -> list[str]:
    """The pending moves once the tab is sent to `url`."""
    return [*moves[-(MOVES_KEPT - 1) :], url]


def going_to(moves: list[str], shown_at: str) -> str:
    """Where the tab is, or is going: the last move not yet arrived, else the address
    the event came from (`shown_at`). A second click sent before the first one's move
    still carries the old address."""
    return moves[-1] if moves else shown_at


def arrived(moves: list[str], url: str) -> list[str] | None:
    """The pending moves left once a page load for `url` comes, if it is one of them
    (the view shown is its own or a later one's); None for any other load (a link, a
    reload, Back), which shows what its address says."""
    if url not in moves:
        return None
    return moves[moves.index(url) + 1 :]
