"""bot tokens: personal API tokens of accounts, bot accounts, and seats they hold

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("last_used_at", WHEN, nullable=True),
        sa.Column("revoked_at", WHEN, nullable=True),
    )
    # Every account and seat made before this is a person's, as it was. A plain ADD
    # COLUMN (SQLite takes one with a default): a batch would copy and drop the table,
    # and on SQLite the drop cascades to every row that refers to it.
    op.add_column(
        "accounts", sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "seats", sa.Column("bot_account", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("bot_account")
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("bot")
    op.drop_table("api_tokens")
