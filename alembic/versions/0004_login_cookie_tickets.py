"""Login sessions of the screens carry a one-time ticket the browser trades for its cookie.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("login_session") as batch:
        batch.add_column(sa.Column("cookie_ticket_hash", sa.String(length=64), nullable=True))
        batch.create_index(
            batch.f("ix_login_session_cookie_ticket_hash"), ["cookie_ticket_hash"], unique=True
        )


def downgrade() -> None:
    with op.batch_alter_table("login_session") as batch:
        batch.drop_index(batch.f("ix_login_session_cookie_ticket_hash"))
        batch.drop_column("cookie_ticket_hash")
