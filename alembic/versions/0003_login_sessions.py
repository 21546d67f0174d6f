"""Server-side login sessions replace the signed login tokens.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "login_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("customer_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["customer_id"],
            ["customer.id"],
            name=op.f("fk_login_session_customer_id_customer"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_session")),
    )
    op.create_index(
        op.f("ix_login_session_customer_id"), "login_session", ["customer_id"], unique=False
    )
    op.create_index(
        op.f("ix_login_session_token_hash"), "login_session", ["token_hash"], unique=True
    )
    # Signed tokens are no longer accepted, so their revocation instant has no use left.
    with op.batch_alter_table("customer") as batch:
        batch.drop_column("tokens_valid_after")


def downgrade() -> None:
    with op.batch_alter_table("customer") as batch:
        batch.add_column(sa.Column("tokens_valid_after", sa.DateTime(timezone=True), nullable=True))
    op.drop_index(op.f("ix_login_session_token_hash"), table_name="login_session")
    op.drop_index(op.f("ix_login_session_customer_id"), table_name="login_session")
    op.drop_table("login_session")
