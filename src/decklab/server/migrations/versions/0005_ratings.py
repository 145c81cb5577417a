"""ratings: rated tables, each player's rating per game (people and bots), its history;
friends and invitations

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def _account() -> sa.Column[int]:
    return sa.Column(
        "account_id",
        sa.Integer(),
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=True,
        index=True,
    )


def upgrade() -> None:
    # Every table made before this was casual. A plain ADD COLUMN, not a batch: SQLite's
    # batch copies and drops game_tables, and the drop would cascade to every seat.
    op.add_column(
        "game_tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(220), primary_key=True),
        _account(),
        sa.Column("bot_spec", sa.String(200), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_table(
        "rated_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rated_at", WHEN, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("player", sa.String(220), nullable=False, index=True),
        _account(),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("at", WHEN, nullable=False),
    )
    op.create_table(
        "friends",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "friend_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
            index=True,
        ),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "invitations",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column(
            "from_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column(
            "to_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("created_at", WHEN, nullable=False),
    )


def downgrade() -> None:
    for name in ("invitations", "friends", "rating_history", "rated_tables", "ratings"):
        op.drop_table(name)
    op.drop_column("game_tables", "rated")
