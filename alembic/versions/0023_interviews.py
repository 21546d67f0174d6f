"""Interviews booked with candidates (`interview`) and the interviewers whose time each
takes (`interview_seat`).

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _text(length: int) -> sqlmodel.sql.sqltypes.AutoString:
    return sqlmodel.sql.sqltypes.AutoString(length=length)


def upgrade() -> None:
    op.create_table(
        "interview",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("application_id", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("blocked_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", _text(16), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("time_zone", _text(64), nullable=False),
        sa.Column("token_hash", _text(64), nullable=False),
        sa.Column("token_sealed", _text(255), nullable=False),
        sa.Column("uid", _text(100), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("meeting_url", _text(500), nullable=False),
        sa.Column("booked_by", _text(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["application_id"], ["job_application.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
        sa.UniqueConstraint("uid"),
    )
    op.create_index("ix_interview_application_id", "interview", ["application_id"])
    op.create_table(
        "interview_seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("interview_id", sa.Integer(), nullable=False),
        sa.Column("staff_member_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["interview_id"], ["interview.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["staff_member_id"], ["staff_member.id"], ondelete="RESTRICT"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_interview_seat_interview_id", "interview_seat", ["interview_id"])
    op.create_index(
        "ix_interview_seat_member_interview",
        "interview_seat",
        ["staff_member_id", "interview_id"],
        unique=True,
    )


def downgrade() -> None:
    op.drop_table("interview_seat")
    op.drop_table("interview")
