"""How many rows of a table a piece of code read from the database, as the ORM saw them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event


@contextmanager
def rows_loaded(model: type[Any]) -> Iterator[list[int]]:
    """A one-item list holding the number of `model` rows loaded inside the block (the
    ORM's "load" event fires once per row turned into an object)."""
    loaded = [0]

    def count(_target: Any, _context: Any) -> None:
        loaded[0] += 1

    event.listen(model, "load", count)
    try:
        yield loaded
    finally:
        event.remove(model, "load", count)
