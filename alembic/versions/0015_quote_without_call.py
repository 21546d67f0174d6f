"""A quote request may come without a call: `quote_request.call_date` may be NULL (and
`call_time` is then ""). Going down, such requests take the day they were received.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("quote_request") as batch:
        batch.alter_column("call_date", existing_type=sa.Date(), nullable=True)


def downgrade() -> None:
    op.execute("UPDATE quote_request SET call_date = date(created_at) WHERE call_date IS NULL")
    with op.batch_alter_table("quote_request") as batch:
        batch.alter_column("call_date", existing_type=sa.Date(), nullable=False)
