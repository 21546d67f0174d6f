"""Job applications (`job_application`, with the CV's key in the file store) and their
history and notes (`job_application_change`).

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "job_application",
        sa.Column("source", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("medium", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("campaign", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("landing_page", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("last_source", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("last_medium", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("last_campaign", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("opening", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("email_key", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("phone", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("location", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("link", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("note", sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
        sa.Column("cv_key", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("cv_name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("cv_type", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("cv_size", sa.Integer(), nullable=False),
        sa.Column("stage", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("withdraw_digest", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("client_ip_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_job_application")),
        sa.UniqueConstraint("withdraw_digest", name=op.f("uq_job_application_withdraw_digest")),
    )
    with op.batch_alter_table("job_application", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_job_application_changed_at"), ["changed_at"], unique=False
        )
        batch_op.create_index(
            "ix_job_application_email_opening", ["email_key", "opening"], unique=False
        )
        batch_op.create_index(
            "ix_job_application_opening_stage_created_at",
            ["opening", "stage", "created_at"],
            unique=False,
        )

    op.create_table(
        "job_application_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("application_id", sa.Integer(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("old_stage", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("new_stage", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("text", sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"],
            ["staff_member.id"],
            name=op.f("fk_job_application_change_actor_id_staff_member"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["application_id"],
            ["job_application.id"],
            name=op.f("fk_job_application_change_application_id_job_application"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_job_application_change")),
    )
    with op.batch_alter_table("job_application_change", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_job_application_change_application_id"), ["application_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("job_application_change", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_job_application_change_application_id"))

    op.drop_table("job_application_change")
    with op.batch_alter_table("job_application", schema=None) as batch_op:
        batch_op.drop_index("ix_job_application_opening_stage_created_at")
        batch_op.drop_index("ix_job_application_email_opening")
        batch_op.drop_index(batch_op.f("ix_job_application_changed_at"))

    op.drop_table("job_application")
