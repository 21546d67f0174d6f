"""Hours with breaks: a date override may hold several intervals, a `member_day` row each
(weekly hours already could). The one-row-per-date constraint becomes one per interval.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29
"""

from collections.abc import Sequence

from alembic import op

revision: str = '0017'
down_revision: str | None = '0016'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("member_day") as batch:
        batch.drop_constraint("uq_member_day_staff_member_id", type_="unique")
        batch.create_unique_constraint(
            "uq_member_day_interval", ["staff_member_id", "day", "start"]
        )


def downgrade() -> None:
    # Keep each date's first interval: the old schema holds one.
    op.execute(
        "DELETE FROM member_day WHERE id NOT IN "
        "(SELECT MIN(id) FROM member_day GROUP BY staff_member_id, day)"
    )
    with op.batch_alter_table("member_day") as batch:
        batch.drop_constraint("uq_member_day_interval", type_="unique")
        batch.create_unique_constraint(
            "uq_member_day_staff_member_id", ["staff_member_id", "day"]
        )
