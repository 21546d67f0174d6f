"""Quote and call requests from the "Request a quote / book a call" form.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "quote_request",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("company", sa.String(length=200), nullable=False),
        sa.Column("phone", sa.String(length=32), nullable=False),
        sa.Column("service", sa.String(length=64), nullable=False),
        sa.Column("budget", sa.String(length=64), nullable=False),
        sa.Column("timeline", sa.String(length=64), nullable=False),
        sa.Column("message", sa.String(length=5000), nullable=False),
        sa.Column("call_date", sa.Date(), nullable=False),
        sa.Column("call_time", sa.String(length=5), nullable=False),
        sa.Column("client_ip_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mailed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_quote_request"),
    )
    op.create_index("ix_quote_request_created_at", "quote_request", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_quote_request_created_at", table_name="quote_request")
    op.drop_table("quote_request")
