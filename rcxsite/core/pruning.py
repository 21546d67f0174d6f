"""What every feature's daily clean-up shares: how long rows stay after they stopped
counting, and one way to delete and report them. Each feature registers its own periodic
prune job (rcxsite/accounts/prune.py, rcxsite/staff/prune.py, rcxsite/jobs/prune.py), so a
new feature's expired rows are cleaned up beside its code.

Rows stay KEEP_DAYS after they stopped counting, so a support question about last week's
sign-in can still be answered; none of them lets anyone in by then.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Delete, delete, or_
from sqlmodel import col

from rcxsite.platform.db import session_scope

logger = logging.getLogger(__name__)

KEEP_DAYS = 30
DAY = 24 * 3600


def ended_sessions(model: Any, *, lifetime: timedelta, before: datetime) -> Delete:
    """The sessions of `model` (a table with `revoked_at` and `created_at`) that ended,
    signed out or past their `lifetime`, before `before`."""
    return delete(model).where(
        or_(col(model.revoked_at) < before, col(model.created_at) < before - lifetime)
    )


def prune(what: str, statements: Mapping[str, Delete]) -> dict[str, int]:
    """Runs each delete in one transaction; how many rows of each table went."""
    pruned = {}
    with session_scope() as session:
        for table, statement in statements.items():
            pruned[table] = int(session.exec(statement).rowcount or 0)
    if any(pruned.values()):
        logger.info("Pruned expired %s: %s", what, pruned)
    return pruned
