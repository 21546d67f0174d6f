"""The staff inbox's search on PostgreSQL: trigram indexes on the four searched columns.

The inbox search is a case-blind substring match (`ILIKE '%word%'`) on name, email,
company and message; no B-tree can serve it, so at 100,000 requests it read the whole
table three times per page (over 500 ms, `make bench`). A GIN index with pg_trgm's
`gin_trgm_ops` per column serves `column ILIKE pattern` as it is written: the planner ORs
the four bitmap scans and rechecks each row found, so the results are exactly ILIKE's.

PostgreSQL only (SQLite has no trigram index; this migration does nothing there). pg_trgm
ships with PostgreSQL and is a trusted extension (13+): the database's owner may create
it. The indexes are built CONCURRENTLY, outside the migration's transaction, so that
quote requests can still be saved while they build (migrations run while old workers do);
an index left invalid by a build that failed is dropped and built again on the next run.
The extension stays on downgrade: dropping it would take along anything else using it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

from collections.abc import Sequence

from alembic import op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# As QuoteRequest declares them (rcxsite/models/leads.py, SEARCH_COLUMNS).
COLUMNS = ("name", "email", "company", "message")


def _name(column: str) -> str:
    return f"ix_quote_request_{column}_trgm"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    with op.get_context().autocommit_block():
        for column in COLUMNS:
            op.drop_index(_name(column), table_name="quote_request", if_exists=True,
                          postgresql_concurrently=True)
            op.create_index(_name(column), "quote_request", [column], unique=False,
                            postgresql_using="gin", postgresql_ops={column: "gin_trgm_ops"},
                            postgresql_concurrently=True)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    with op.get_context().autocommit_block():
        for column in COLUMNS:
            op.drop_index(_name(column), table_name="quote_request", if_exists=True,
                          postgresql_concurrently=True)
