"""Each day's analytics counts under one filter (`analytics_daily_pair`): a dashboard
with a filter reads them for whole days instead of the views.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "analytics_daily_pair",
        sa.Column("filter", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("filter_value", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("dimension", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("value", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("visitors", sa.Integer(), nullable=False),
        sa.Column("visits", sa.Integer(), nullable=False),
        sa.Column("views", sa.Integer(), nullable=False),
        sa.Column("bounces", sa.Integer(), nullable=False),
        sa.Column("duration_seconds", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint(
            "filter", "filter_value", "dimension", "day", "value",
            name=op.f("pk_analytics_daily_pair"),
        ),
    )
    op.create_index("ix_analytics_daily_pair_day", "analytics_daily_pair", ["day"])
    # The days already counted get their pairs at the next hourly count: it counts again
    # only its last day, so the pairs of earlier days are filled here by marking nothing;
    # a filter on a day without pairs reads the views (see dashboard/parts.py).


def downgrade() -> None:
    op.drop_index("ix_analytics_daily_pair_day", table_name="analytics_daily_pair")
    op.drop_table("analytics_daily_pair")
