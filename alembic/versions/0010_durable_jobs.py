"""Durable jobs: the `job` table (mail through the outbox, scheduled jobs) and
`periodic_run` (which period each periodic job last ran for).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "job",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=64), nullable=False),
        sa.Column("ref", sa.String(length=200), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(length=100), nullable=False),
        sa.Column("last_error", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_job")),
    )
    op.create_index("ix_job_state_due_at", "job", ["state", "due_at"], unique=False)
    op.create_index("ix_job_ref", "job", ["ref"], unique=False)
    op.create_table(
        "periodic_run",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("period", sa.Integer(), nullable=False),
        sa.Column("ran_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ran_by", sa.String(length=100), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_periodic_run")),
    )


def downgrade() -> None:
    op.drop_table("periodic_run")
    op.drop_index("ix_job_ref", table_name="job")
    op.drop_index("ix_job_state_due_at", table_name="job")
    op.drop_table("job")
