"""moderation clock: one counter bumped by every ban, unban, mute and block

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    clock = op.create_table(
        "moderation_clock",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
    )
    op.bulk_insert(clock, [{"id": 1, "version": 0}])


def downgrade() -> None:
    op.drop_table("moderation_clock")
