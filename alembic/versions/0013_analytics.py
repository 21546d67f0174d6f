"""First-party analytics: page views, visits, daily counts, the daily salts; where each
quote request and account came from (`source` ... `last_campaign` on `quote_request` and
`customer`).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ATTRIBUTION = (
    ("source", 100),
    ("medium", 100),
    ("campaign", 100),
    ("landing_page", 300),
    ("last_source", 100),
    ("last_medium", 100),
    ("last_campaign", 100),
)
_ORIGIN = (
    ("referrer_host", 255),
    ("source", 100),
    ("medium", 100),
    ("campaign", 100),
)
_COUNTS = ("visitors", "visits", "views", "bounces")
_CLIENT = (("country", 2), ("device", 50), ("browser", 50), ("os", 50))


def _strings(columns: Sequence[tuple[str, int]]) -> list[sa.Column]:
    return [
        sa.Column(name, sa.String(length), nullable=False, server_default="")
        for name, length in columns
    ]


def upgrade() -> None:
    op.create_table(
        "analytics_salt",
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "analytics_visit",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("visitor", sa.String(32), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("views", sa.Integer(), nullable=False),
        sa.Column("entry_path", sa.String(300), nullable=False),
        *_strings(_ORIGIN),
        *_strings(_CLIENT),
    )
    op.create_index("ix_analytics_visit_started_at", "analytics_visit", ["started_at"])
    op.create_index(
        "ix_analytics_visit_visitor_last_at", "analytics_visit", ["visitor", "last_at"]
    )
    op.create_table(
        "analytics_view",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("visit_id", sa.Integer(), nullable=False),
        sa.Column("visitor", sa.String(32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("path", sa.String(300), nullable=False),
        *_strings(_ORIGIN),
        *_strings((("term", 100), ("content", 100))),
        *_strings(_CLIENT),
    )
    op.create_index("ix_analytics_view_at", "analytics_view", ["at"])
    op.create_index("ix_analytics_view_visit_id", "analytics_view", ["visit_id"])
    op.create_table(
        "analytics_daily",
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("dimension", sa.String(16), primary_key=True),
        sa.Column("value", sa.String(300), primary_key=True),
        *[sa.Column(name, sa.Integer(), nullable=False) for name in _COUNTS],
        sa.Column("duration_seconds", sa.Float(), nullable=False),
    )
    for table in ("quote_request", "customer"):
        with op.batch_alter_table(table) as batch:
            for column in _strings(_ATTRIBUTION):
                batch.add_column(column)


def downgrade() -> None:
    for table in ("quote_request", "customer"):
        with op.batch_alter_table(table) as batch:
            for name, _ in _ATTRIBUTION:
                batch.drop_column(name)
    op.drop_table("analytics_daily")
    op.drop_table("analytics_view")
    op.drop_table("analytics_visit")
    op.drop_table("analytics_salt")
