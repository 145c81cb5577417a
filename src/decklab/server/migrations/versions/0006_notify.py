"""notify: an account's email address and which mail it wants; the notification outbox

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMNs, not a batch: SQLite's batch copies and drops the accounts table,
    # and the drop would cascade to its sessions, passkeys and seats.
    op.add_column("accounts", sa.Column("email", sa.String(254), nullable=True))
    for kind in ("email_turn", "email_invite"):
        op.add_column(
            "accounts", sa.Column(kind, sa.Boolean(), nullable=False, server_default=sa.true())
        )
    op.create_table(
        "notify_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("text", sa.String(300), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("sent_at", sa.Float(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("notify_outbox")
    for name in ("email_invite", "email_turn", "email"):
        op.drop_column("accounts", name)
