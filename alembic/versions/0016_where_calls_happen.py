"""Where a call happens: `booking.call_kind` (video or phone) and `booking.meeting_url`,
and a member's own `staff_member.meeting_url`. Calls booked before are video calls with
no link (their host sends one, as their mails said).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("booking") as batch:
        batch.add_column(
            sa.Column("call_kind", sa.String(length=8), nullable=False, server_default="video")
        )
        batch.add_column(
            sa.Column("meeting_url", sa.String(length=500), nullable=False, server_default="")
        )
    with op.batch_alter_table("staff_member") as batch:
        batch.add_column(
            sa.Column("meeting_url", sa.String(length=500), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("staff_member") as batch:
        batch.drop_column("meeting_url")
    with op.batch_alter_table("booking") as batch:
        batch.drop_column("meeting_url")
        batch.drop_column("call_kind")
