"""Time zones by their canonical names: a visitor's or member's zone stored under a legacy
alias a browser reported ("Asia/Calcutta") becomes the zone it names ("Asia/Kolkata"), as
everything stored from now on is. Nothing to undo: both names are the same zone.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from rcxsite.core.time_zones import canonical_zone

revision: str = '0018'
down_revision: str | None = '0017'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = (("booking", "visitor_time_zone"), ("staff_member", "time_zone"))


def upgrade() -> None:
    connection = op.get_bind()
    for table, column in _COLUMNS:
        names = connection.execute(sa.text(f"SELECT DISTINCT {column} FROM {table}")).scalars()
        for name in list(names):
            zone = canonical_zone(name) if name else None
            if zone is not None and zone != name:
                connection.execute(
                    sa.text(f"UPDATE {table} SET {column} = :zone WHERE {column} = :name"),
                    {"zone": zone, "name": name},
                )


def downgrade() -> None:
    pass
