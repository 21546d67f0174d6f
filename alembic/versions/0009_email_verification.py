"""Email verification of customer addresses: when an address was proven, and the links
mailed to prove it.

Every account that exists when this runs starts unverified (`email_verified_at` NULL):
registration never proved an address, so none of them is known to be the customer's.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("customer") as batch:
        batch.add_column(sa.Column("email_verified_at", sa.DateTime(timezone=True), nullable=True))

    op.create_table(
        "email_verification_token",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("customer_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["customer_id"],
            ["customer.id"],
            name=op.f("fk_email_verification_token_customer_id_customer"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_email_verification_token")),
    )
    op.create_index(
        op.f("ix_email_verification_token_customer_id"), "email_verification_token",
        ["customer_id"], unique=False,
    )
    op.create_index(
        op.f("ix_email_verification_token_token_hash"), "email_verification_token",
        ["token_hash"], unique=True,
    )


def downgrade() -> None:
    op.drop_index(
        op.f("ix_email_verification_token_token_hash"), table_name="email_verification_token"
    )
    op.drop_index(
        op.f("ix_email_verification_token_customer_id"), table_name="email_verification_token"
    )
    op.drop_table("email_verification_token")
    with op.batch_alter_table("customer") as batch:
        batch.drop_column("email_verified_at")
