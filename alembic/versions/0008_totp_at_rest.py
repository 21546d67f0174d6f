"""Authenticator keys sealed at rest: `staff_member.totp_secret` and
`staff_invitation.pending_totp_secret` hold AES-GCM sealed values (rcxsite/platform/at_rest.py),
not the plain base32 key, so a copy of the database alone yields no codes.

The columns grow to 128 characters (a sealed 32-letter key takes 83), and every plain key
already stored is sealed with the server secret of the site being migrated (the same
`SECRET_KEY` or data folder as the site: run it there). Downgrade opens them again.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from rcxsite.platform.at_rest import PREFIX, unseal
from rcxsite.staff.two_factor import sealed_secret

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = (("staff_member", "totp_secret"), ("staff_invitation", "pending_totp_secret"))


def _convert(table: str, column: str, *, sealing: bool) -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.text(f"SELECT id, {column} FROM {table} WHERE {column} != ''")).all()
    for row_id, value in rows:
        if value.startswith(PREFIX) == sealing:
            continue  # already in the wanted form
        # unseal raises for a key sealed under another secret: better a stopped downgrade
        # than authenticators silently emptied.
        new = sealed_secret(value) if sealing else unseal("totp-secret", value)
        connection.execute(sa.text(f"UPDATE {table} SET {column} = :value WHERE id = :id"),
                           {"value": new, "id": row_id})


def upgrade() -> None:
    for table, column in _COLUMNS:
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, existing_type=sa.String(length=64),
                               type_=sa.String(length=128), existing_nullable=False)
        _convert(table, column, sealing=True)


def downgrade() -> None:
    for table, column in _COLUMNS:
        _convert(table, column, sealing=False)
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, existing_type=sa.String(length=128),
                               type_=sa.String(length=64), existing_nullable=False)
