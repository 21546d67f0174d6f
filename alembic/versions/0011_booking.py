"""Booked calls: who takes calls and when (weekly hours, date overrides, time off), the
`booking` table, and on PostgreSQL the exclusion constraint that refuses two active
bookings of one member whose call-plus-buffer times overlap.

The constraint needs btree_gist (an integer `=` in a GiST index); it ships with PostgreSQL
and is a trusted extension (13+), so the database's owner may create it. It stays on
downgrade, as pg_trgm does (0006): something else may use it. Existing sales members take
calls from now on, as new ones do.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OVERLAP_CONSTRAINT = "ex_booking_host_overlap"


def _member_id() -> sa.Column:
    return sa.Column("staff_member_id", sa.Integer(), nullable=False)


def _member_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["staff_member_id"], ["staff_member.id"],
        name=op.f(f"fk_{table}_staff_member_id_staff_member"), ondelete="CASCADE",
    )


def upgrade() -> None:
    with op.batch_alter_table("staff_member", schema=None) as batch_op:
        batch_op.add_column(sa.Column("takes_calls", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column("calendar_feed_hash", sa.String(length=64),
                                      nullable=False, server_default=""))
    op.execute(sa.text("UPDATE staff_member SET takes_calls = true WHERE role = 'sales'"))

    op.create_table(
        "member_hours",
        sa.Column("id", sa.Integer(), nullable=False),
        _member_id(),
        sa.Column("weekday", sa.Integer(), nullable=False),
        sa.Column("start", sa.String(length=5), nullable=False),
        sa.Column("end", sa.String(length=5), nullable=False),
        _member_fk("member_hours"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_hours")),
    )
    op.create_index(op.f("ix_member_hours_staff_member_id"), "member_hours",
                    ["staff_member_id"], unique=False)
    op.create_table(
        "member_day",
        sa.Column("id", sa.Integer(), nullable=False),
        _member_id(),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("start", sa.String(length=5), nullable=False),
        sa.Column("end", sa.String(length=5), nullable=False),
        _member_fk("member_day"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_day")),
        sa.UniqueConstraint("staff_member_id", "day",
                            name=op.f("uq_member_day_staff_member_id")),
    )
    op.create_index(op.f("ix_member_day_staff_member_id"), "member_day",
                    ["staff_member_id"], unique=False)
    op.create_table(
        "member_time_off",
        sa.Column("id", sa.Integer(), nullable=False),
        _member_id(),
        sa.Column("first_day", sa.Date(), nullable=False),
        sa.Column("last_day", sa.Date(), nullable=False),
        _member_fk("member_time_off"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_time_off")),
    )
    op.create_index(op.f("ix_member_time_off_staff_member_id"), "member_time_off",
                    ["staff_member_id"], unique=False)

    op.create_table(
        "booking",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("quote_request_id", sa.Integer(), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("blocked_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("visitor_name", sa.String(length=100), nullable=False),
        sa.Column("visitor_email", sa.String(length=254), nullable=False),
        sa.Column("email_key", sa.String(length=254), nullable=False),
        sa.Column("visitor_time_zone", sa.String(length=64), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("token_sealed", sa.String(length=255), nullable=False),
        sa.Column("uid", sa.String(length=100), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["quote_request_id"], ["quote_request.id"],
                                name=op.f("fk_booking_quote_request_id_quote_request"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["host_id"], ["staff_member.id"],
                                name=op.f("fk_booking_host_id_staff_member"),
                                ondelete="RESTRICT"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_booking")),
        sa.UniqueConstraint("uid", name=op.f("uq_booking_uid")),
    )
    op.create_index(op.f("ix_booking_quote_request_id"), "booking", ["quote_request_id"],
                    unique=True)
    op.create_index(op.f("ix_booking_host_id"), "booking", ["host_id"], unique=False)
    op.create_index(op.f("ix_booking_email_key"), "booking", ["email_key"], unique=False)
    op.create_index(op.f("ix_booking_token_hash"), "booking", ["token_hash"], unique=True)
    op.create_index("ix_booking_host_id_starts_at", "booking", ["host_id", "starts_at"],
                    unique=False)

    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS btree_gist")
        op.execute(
            f"ALTER TABLE booking ADD CONSTRAINT {OVERLAP_CONSTRAINT} EXCLUDE USING gist "
            "(host_id WITH =, tstzrange(starts_at, blocked_until, '[)') WITH &&) "
            "WHERE (active)"
        )


def downgrade() -> None:
    # The exclusion constraint goes with its table.
    op.drop_index("ix_booking_host_id_starts_at", table_name="booking")
    op.drop_index(op.f("ix_booking_token_hash"), table_name="booking")
    op.drop_index(op.f("ix_booking_email_key"), table_name="booking")
    op.drop_index(op.f("ix_booking_host_id"), table_name="booking")
    op.drop_index(op.f("ix_booking_quote_request_id"), table_name="booking")
    op.drop_table("booking")
    for table in ("member_time_off", "member_day", "member_hours"):
        op.drop_index(op.f(f"ix_{table}_staff_member_id"), table_name=table)
        op.drop_table(table)
    with op.batch_alter_table("staff_member", schema=None) as batch_op:
        batch_op.drop_column("calendar_feed_hash")
        batch_op.drop_column("takes_calls")
