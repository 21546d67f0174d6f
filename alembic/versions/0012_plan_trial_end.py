"""When a customer's free trial ends: `customer.trial_ends_at`.

A trial's end is fixed when it is chosen (14 days on), so that choosing a plan again does
not start another. Accounts registered with a trial before this keep the trial they chose
then: it ends 14 days after their registration (every plan's trial was 14 days).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TRIAL_DAYS = 14
# Date arithmetic is spelled differently by each database.
_TRIAL_END = {
    "postgresql": f"created_at + interval '{TRIAL_DAYS} days'",
    "sqlite": f"datetime(created_at, '+{TRIAL_DAYS} days')",
}


def upgrade() -> None:
    with op.batch_alter_table("customer") as batch:
        batch.add_column(sa.Column("trial_ends_at", sa.DateTime(timezone=True), nullable=True))
    trial_end = _TRIAL_END[op.get_bind().dialect.name]
    op.execute(
        sa.text(
            f"UPDATE customer SET trial_ends_at = {trial_end}"
            " WHERE is_trial AND subscription_plan_id IS NOT NULL"
        )
    )


def downgrade() -> None:
    with op.batch_alter_table("customer") as batch:
        batch.drop_column("trial_ends_at")
