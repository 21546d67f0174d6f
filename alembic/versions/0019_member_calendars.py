"""Members' own calendars (`member_calendar`), the busy times synced from them
(`member_busy`) and the booked calls copied to them (`calendar_copy`).

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "member_calendar",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("staff_member_id", sa.Integer(), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
        sa.Column("url", sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
        sa.Column("username", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("password_sealed", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.Column("write_calls", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("synced_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("busy_count", sa.Integer(), nullable=False),
        sa.Column("busy_version", sa.Integer(), nullable=False),
        sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sync_error", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.ForeignKeyConstraint(
            ["staff_member_id"],
            ["staff_member.id"],
            name=op.f("fk_member_calendar_staff_member_id_staff_member"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_calendar")),
    )
    with op.batch_alter_table("member_calendar", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_member_calendar_staff_member_id"), ["staff_member_id"], unique=False
        )

    op.create_table(
        "member_busy",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("calendar_id", sa.Integer(), nullable=False),
        sa.Column("staff_member_id", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["calendar_id"],
            ["member_calendar.id"],
            name=op.f("fk_member_busy_calendar_id_member_calendar"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["staff_member_id"],
            ["staff_member.id"],
            name=op.f("fk_member_busy_staff_member_id_staff_member"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_busy")),
    )
    with op.batch_alter_table("member_busy", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_member_busy_calendar_id"), ["calendar_id"], unique=False
        )
        batch_op.create_index(
            "ix_member_busy_member_starts", ["staff_member_id", "starts_at"], unique=False
        )

    op.create_table(
        "calendar_copy",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("booking_id", sa.Integer(), nullable=False),
        sa.Column("calendar_id", sa.Integer(), nullable=False),
        sa.Column("href", sqlmodel.sql.sqltypes.AutoString(length=2200), nullable=False),
        sa.ForeignKeyConstraint(
            ["booking_id"],
            ["booking.id"],
            name=op.f("fk_calendar_copy_booking_id_booking"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["calendar_id"],
            ["member_calendar.id"],
            name=op.f("fk_calendar_copy_calendar_id_member_calendar"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_calendar_copy")),
        sa.UniqueConstraint("booking_id", "calendar_id", name="uq_calendar_copy"),
    )
    with op.batch_alter_table("calendar_copy", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_calendar_copy_booking_id"), ["booking_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_calendar_copy_calendar_id"), ["calendar_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("calendar_copy", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_calendar_copy_calendar_id"))
        batch_op.drop_index(batch_op.f("ix_calendar_copy_booking_id"))

    op.drop_table("calendar_copy")
    with op.batch_alter_table("member_busy", schema=None) as batch_op:
        batch_op.drop_index("ix_member_busy_member_starts")
        batch_op.drop_index(batch_op.f("ix_member_busy_calendar_id"))

    op.drop_table("member_busy")
    with op.batch_alter_table("member_calendar", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_member_calendar_staff_member_id"))

    op.drop_table("member_calendar")
