"""Stored rows read or changed directly, behind the services' back: a test's starting
point, or what it checks afterwards."""

from __future__ import annotations

from typing import Any, TypeVar

from sqlmodel import Session, SQLModel

from rcxsite.platform.db import get_engine

Row = TypeVar("Row", bound=SQLModel)


def stored(model: type[Row], row_id: Any) -> Row:
    """The stored row, detached: its columns stay readable once the session is closed."""
    with Session(get_engine()) as session:
        row = session.get(model, row_id)
        assert row is not None, f"{model.__name__} #{row_id} is not stored"
        session.expunge(row)
        return row


def change_row(model: type[Row], row_id: Any, **values: Any) -> Row:
    """Set columns of a stored row; the row as stored now, detached."""
    with Session(get_engine()) as session:
        row = session.get(model, row_id)
        assert row is not None, f"{model.__name__} #{row_id} is not stored"
        for name, value in values.items():
            setattr(row, name, value)
        session.add(row)
        session.commit()
        session.refresh(row)
        session.expunge(row)
        return row
