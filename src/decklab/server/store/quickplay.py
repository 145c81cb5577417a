"""The queries of quick play: the terms of the tables filling, each one transaction."""

from __future__ import annotations

from sqlalchemy import Engine, select
from sqlalchemy.orm import sessionmaker

from decklab.server.store.models import QuickPlayRow, SeatRow, TableRow


class QuickPlayStore:
    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def add(self, row: QuickPlayRow) -> None:
        with self.sessions.begin() as db:
            db.add(row)

    def get(self, table_id: str) -> QuickPlayRow | None:
        with self.sessions() as db:
            return db.get(QuickPlayRow, table_id)

    def candidates(
        self, game: str, min_players: int, max_players: int, level: str, rated: bool, now: float
    ) -> list[str]:
        """Public waiting quick-play tables of these terms, before their deadline, with an
        open seat: the oldest (soonest to start) first, so that people gather."""
        with self.sessions() as db:
            open_seat = (
                select(SeatRow.seat)
                .where(SeatRow.table_id == QuickPlayRow.table_id, SeatRow.kind == "open")
                .exists()
            )
            rows = db.scalars(
                select(QuickPlayRow.table_id)
                .join(TableRow, TableRow.id == QuickPlayRow.table_id)
                .where(
                    QuickPlayRow.game == game,
                    QuickPlayRow.min_players == min_players,
                    QuickPlayRow.max_players == max_players,
                    QuickPlayRow.level == level,
                    QuickPlayRow.rated.is_(rated),
                    QuickPlayRow.deadline > now,
                    TableRow.status == "waiting",
                    TableRow.public.is_(True),
                    open_seat,
                )
                .order_by(QuickPlayRow.deadline, QuickPlayRow.table_id)
            )
            return list(rows)

    def waiting(self) -> list[tuple[float, str]]:
        """(deadline, table id) of every quick-play table still waiting: a start sets
        their alarms again."""
        with self.sessions() as db:
            rows = db.execute(
                select(QuickPlayRow.deadline, QuickPlayRow.table_id)
                .join(TableRow, TableRow.id == QuickPlayRow.table_id)
                .where(TableRow.status == "waiting")
            ).all()
            return [(deadline, table_id) for deadline, table_id in rows]
