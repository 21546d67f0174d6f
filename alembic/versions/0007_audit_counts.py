"""The audit log's refused attempts aggregated: a count, the last time, and the key of the
row a repeated refusal adds to.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('audit_entry', schema=None) as batch_op:
        # Every entry so far happened once.
        batch_op.add_column(sa.Column('count', sa.Integer(), nullable=False,
                                      server_default='1'))
        batch_op.add_column(sa.Column('last_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('repeat_key', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_audit_entry_repeat_key'), ['repeat_key'],
                              unique=True)


def downgrade() -> None:
    with op.batch_alter_table('audit_entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_entry_repeat_key'))
        batch_op.drop_column('repeat_key')
        batch_op.drop_column('last_at')
        batch_op.drop_column('count')
