"""End the calendar feeds of members who lost the calls before feeds ended with them.

Since this version a feed's token is cleared when its member is disabled, moves to a role
without calls or has their sign-in reset (`reset-2fa` clears the password). Tokens kept
from before would start working again if such a member got the calls back; they are
cleared here. The roles are the ones that took calls when this was written.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29
"""

from collections.abc import Sequence

from alembic import op

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "UPDATE staff_member SET calendar_feed_hash = '' WHERE calendar_feed_hash <> '' AND"
        " (disabled_at IS NOT NULL OR role NOT IN ('admin', 'sales') OR password_hash = '')"
    )


def downgrade() -> None:
    # A cleared token cannot be given back: the member makes a new feed on My calls.
    pass
