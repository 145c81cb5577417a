"""accounts: people's accounts, their sessions and passkeys; seats and solo results
that belong to an account

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("seat_key", sa.LargeBinary(32), nullable=False),
        sa.Column("webauthn_user_id", sa.LargeBinary(32), nullable=False, unique=True),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("last_seen_at", WHEN, nullable=False),
        sa.Column("revoked_at", WHEN, nullable=True),
        sa.Column("how", sa.String(16), nullable=False),
    )
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(400), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("challenge", sa.LargeBinary(64), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("created_at", WHEN, nullable=False),
    )
    # Nullable: every seat and result made before this is a guest's, as it was.
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("token_salt", sa.String(32), nullable=True))
        batch_op.create_foreign_key(
            "fk_seats_account", "accounts", ["account_id"], ["id"], ondelete="SET NULL"
        )
        batch_op.create_index("ix_seats_account_id", ["account_id"])
    with op.batch_alter_table("solo_results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            "fk_solo_results_account", "accounts", ["account_id"], ["id"], ondelete="CASCADE"
        )
        batch_op.create_index("ix_solo_results_account_id", ["account_id"])


def downgrade() -> None:
    with op.batch_alter_table("solo_results", schema=None) as batch_op:
        batch_op.drop_index("ix_solo_results_account_id")
        batch_op.drop_constraint("fk_solo_results_account", type_="foreignkey")
        batch_op.drop_column("account_id")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index("ix_seats_account_id")
        batch_op.drop_constraint("fk_seats_account", type_="foreignkey")
        batch_op.drop_column("token_salt")
        batch_op.drop_column("account_id")
    for name in ("webauthn_challenges", "passkeys", "account_sessions", "accounts"):
        op.drop_table(name)
