"""Staff back office: members, invitations, staff sessions, the inbox's status, owner,
notes and history, locked customer accounts and the audit log.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('staff_member',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('email_key', sa.String(length=254), nullable=False),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('totp_secret', sa.String(length=64), nullable=False),
    sa.Column('totp_last_step', sa.Integer(), nullable=False),
    sa.Column('recovery_code_hashes', sa.String(length=1000), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('disabled_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_sign_in_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_staff_member'))
    )
    with op.batch_alter_table('staff_member', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_staff_member_email_key'), ['email_key'], unique=True)

    op.create_table('audit_entry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('actor_id', sa.Integer(), nullable=True),
    sa.Column('actor_name', sa.String(length=100), nullable=False),
    sa.Column('action', sa.String(length=64), nullable=False),
    sa.Column('target', sa.String(length=200), nullable=False),
    sa.Column('detail', sa.String(length=1000), nullable=False),
    sa.Column('client_address', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['actor_id'], ['staff_member.id'], name=op.f('fk_audit_entry_actor_id_staff_member'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_entry'))
    )
    with op.batch_alter_table('audit_entry', schema=None) as batch_op:
        batch_op.create_index('ix_audit_entry_action_created_at', ['action', 'created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_audit_entry_created_at'), ['created_at'], unique=False)

    op.create_table('staff_invitation',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('staff_member_id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('pending_password_hash', sa.String(length=255), nullable=False),
    sa.Column('pending_totp_secret', sa.String(length=64), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['staff_member_id'], ['staff_member.id'], name=op.f('fk_staff_invitation_staff_member_id_staff_member'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_staff_invitation'))
    )
    with op.batch_alter_table('staff_invitation', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_staff_invitation_staff_member_id'), ['staff_member_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_staff_invitation_token_hash'), ['token_hash'], unique=True)

    op.create_table('staff_session',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('staff_member_id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('cookie_ticket_hash', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['staff_member_id'], ['staff_member.id'], name=op.f('fk_staff_session_staff_member_id_staff_member'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_staff_session'))
    )
    with op.batch_alter_table('staff_session', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_staff_session_cookie_ticket_hash'), ['cookie_ticket_hash'], unique=True)
        batch_op.create_index(batch_op.f('ix_staff_session_staff_member_id'), ['staff_member_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_staff_session_token_hash'), ['token_hash'], unique=True)

    op.create_table('quote_change',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('quote_request_id', sa.Integer(), nullable=False),
    sa.Column('actor_id', sa.Integer(), nullable=True),
    sa.Column('actor_name', sa.String(length=100), nullable=False),
    sa.Column('field', sa.String(length=64), nullable=False),
    sa.Column('old_value', sa.String(length=500), nullable=False),
    sa.Column('new_value', sa.String(length=500), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['actor_id'], ['staff_member.id'], name=op.f('fk_quote_change_actor_id_staff_member'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['quote_request_id'], ['quote_request.id'], name=op.f('fk_quote_change_quote_request_id_quote_request'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_quote_change'))
    )
    with op.batch_alter_table('quote_change', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_quote_change_quote_request_id'), ['quote_request_id'], unique=False)

    op.create_table('quote_note',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('quote_request_id', sa.Integer(), nullable=False),
    sa.Column('author_id', sa.Integer(), nullable=True),
    sa.Column('author_name', sa.String(length=100), nullable=False),
    sa.Column('body', sa.String(length=5000), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['author_id'], ['staff_member.id'], name=op.f('fk_quote_note_author_id_staff_member'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['quote_request_id'], ['quote_request.id'], name=op.f('fk_quote_note_quote_request_id_quote_request'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_quote_note'))
    )
    with op.batch_alter_table('quote_note', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_quote_note_quote_request_id'), ['quote_request_id'], unique=False)

    with op.batch_alter_table('customer', schema=None) as batch_op:
        batch_op.add_column(sa.Column('locked_at', sa.DateTime(timezone=True), nullable=True))

    with op.batch_alter_table('quote_request', schema=None) as batch_op:
        batch_op.add_column(sa.Column('status', sa.String(length=16), nullable=False, server_default='new'))
        batch_op.add_column(sa.Column('owner_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('lost_reason', sa.String(length=500), nullable=False, server_default=''))
        batch_op.create_index(batch_op.f('ix_quote_request_owner_id'), ['owner_id'], unique=False)
        batch_op.create_index('ix_quote_request_status_created_at', ['status', 'created_at'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_quote_request_owner_id_staff_member'), 'staff_member', ['owner_id'], ['id'], ondelete='SET NULL')



def downgrade() -> None:
    with op.batch_alter_table('quote_request', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_quote_request_owner_id_staff_member'), type_='foreignkey')
        batch_op.drop_index('ix_quote_request_status_created_at')
        batch_op.drop_index(batch_op.f('ix_quote_request_owner_id'))
        batch_op.drop_column('lost_reason')
        batch_op.drop_column('owner_id')
        batch_op.drop_column('status')

    with op.batch_alter_table('customer', schema=None) as batch_op:
        batch_op.drop_column('locked_at')

    with op.batch_alter_table('quote_note', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_quote_note_quote_request_id'))

    op.drop_table('quote_note')
    with op.batch_alter_table('quote_change', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_quote_change_quote_request_id'))

    op.drop_table('quote_change')
    with op.batch_alter_table('staff_session', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_staff_session_token_hash'))
        batch_op.drop_index(batch_op.f('ix_staff_session_staff_member_id'))
        batch_op.drop_index(batch_op.f('ix_staff_session_cookie_ticket_hash'))

    op.drop_table('staff_session')
    with op.batch_alter_table('staff_invitation', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_staff_invitation_token_hash'))
        batch_op.drop_index(batch_op.f('ix_staff_invitation_staff_member_id'))

    op.drop_table('staff_invitation')
    with op.batch_alter_table('audit_entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_entry_created_at'))
        batch_op.drop_index('ix_audit_entry_action_created_at')

    op.drop_table('audit_entry')
    with op.batch_alter_table('staff_member', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_staff_member_email_key'))

    op.drop_table('staff_member')
