"""seat arrival: whether a rated table's seat has used its token (a never-arrived seat's
absence aborts the table instead of ending or handing over its game)

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN, not a batch: SQLite's batch copies and drops the table. The
    # seats of rated tables still under way count as arrived: whether they came is not
    # known, and the upgrade must not abort their games (elsewhere the flag means
    # nothing).
    op.add_column(
        "seats", sa.Column("arrived", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    seats = sa.table(
        "seats", sa.column("table_id", sa.String()), sa.column("arrived", sa.Boolean())
    )
    tables = sa.table(
        "game_tables",
        sa.column("id", sa.String()),
        sa.column("rated", sa.Boolean()),
        sa.column("status", sa.String()),
    )
    under_way = sa.select(tables.c.id).where(
        tables.c.rated.is_(True), tables.c.status.in_(("waiting", "playing"))
    )
    op.execute(seats.update().where(seats.c.table_id.in_(under_way)).values(arrived=True))


def downgrade() -> None:
    op.drop_column("seats", "arrived")
