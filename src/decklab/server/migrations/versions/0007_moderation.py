"""moderation: table creators, mutes and blocks, reports, banned accounts and addresses

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    # A plain ADD COLUMN, never a batch: SQLite's batch copies and drops the table, and
    # the drop would cascade to every row that refers to an account.
    op.add_column("accounts", sa.Column("banned_at", WHEN, nullable=True))
    op.create_table(
        "table_creators",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
            index=True,
        ),
    )
    op.create_table(
        "mutes",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "other_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
            index=True,
        ),
        sa.Column("block", sa.Boolean(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False, index=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("nickname", sa.String(64), nullable=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
            index=True,
        ),
        sa.Column("reporter", sa.String(80), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("chat", sa.JSON(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("resolved_at", WHEN, nullable=True),
    )
    op.create_table(
        "address_bans",
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("created_at", WHEN, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("address_bans")
    op.drop_table("reports")
    op.drop_table("mutes")
    op.drop_table("table_creators")
    op.drop_column("accounts", "banned_at")
