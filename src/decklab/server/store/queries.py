"""The queries the table service needs, each one transaction.

Every write that changes a table checks and moves the table's version in the
same transaction (``UPDATE … WHERE version = expected``): an action is committed
together with the version it creates, and two writers — two processes driving the
same table — can never both commit the same version.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, select, update
from sqlalchemy.orm import Session, sessionmaker

from decklab.server.store.models import (
    ActionRow,
    ChatRow,
    SeatRow,
    SoloResultRow,
    TableRow,
    utcnow,
)


class VersionConflict(Exception):
    """The table moved on in the database (another process wrote first)."""


@dataclass(frozen=True)
class LoadedTable:
    table: TableRow
    seats: list[SeatRow]
    actions: list[ActionRow]
    chat: list[ChatRow]


@dataclass(frozen=True)
class SeatChange:
    seat: int
    values: dict[str, Any]


class Store:
    """Synchronous queries; the service runs them off the event loop."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------ reading
    def load(self, table_id: str) -> LoadedTable | None:
        with self.sessions() as db:
            table = db.get(TableRow, table_id)
            if table is None:
                return None
            seats = list(
                db.scalars(
                    select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
                )
            )
            actions = list(
                db.scalars(
                    select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.seq)
                )
            )
            chat = list(
                db.scalars(select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id))
            )
            return LoadedTable(table, seats, actions, chat)

    def version(self, table_id: str) -> int | None:
        with self.sessions() as db:
            return db.scalar(select(TableRow.version).where(TableRow.id == table_id))

    def unfinished(self) -> list[str]:
        with self.sessions() as db:
            rows = db.scalars(
                select(TableRow.id)
                .where(TableRow.status != "finished")
                .order_by(TableRow.created_at)
            )
            return list(rows)

    def public_tables(self, limit: int = 200) -> list[tuple[TableRow, list[SeatRow]]]:
        with self.sessions() as db:
            tables = list(
                db.scalars(
                    select(TableRow)
                    .where(TableRow.public.is_(True), TableRow.status != "finished")
                    .order_by(TableRow.created_at.desc())
                    .limit(limit)
                )
            )
            ids = [t.id for t in tables]
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            if ids:
                for seat in db.scalars(
                    select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)
                ):
                    seats[seat.table_id].append(seat)
            return [(t, seats[t.id]) for t in tables]

    def solo_results(self, nickname: str, game: str | None = None) -> list[SoloResultRow]:
        with self.sessions() as db:
            query = select(SoloResultRow).where(SoloResultRow.nickname == nickname)
            if game is not None:
                query = query.where(SoloResultRow.game == game)
            return list(db.scalars(query.order_by(SoloResultRow.finished_at, SoloResultRow.id)))

    # ------------------------------------------------------------ writing
    def create(self, table: TableRow, seats: Sequence[SeatRow]) -> None:
        with self.sessions.begin() as db:
            db.add(table)
            db.flush()
            db.add_all(seats)

    def _move_version(
        self, db: Session, table_id: str, expected: int, new: int, values: dict[str, Any]
    ) -> None:
        moved = db.execute(
            update(TableRow)
            .where(TableRow.id == table_id, TableRow.version == expected)
            .values(version=new, updated_at=utcnow(), **values)
        )
        if moved.rowcount != 1:  # type: ignore[attr-defined]
            raise VersionConflict(table_id)

    def commit(
        self,
        table_id: str,
        expected: int,
        new: int,
        *,
        table_values: dict[str, Any] | None = None,
        seats: Sequence[SeatChange] = (),
        action: ActionRow | None = None,
        drop_actions_from: int | None = None,
        solo: SoloResultRow | None = None,
    ) -> None:
        """One event of a table, all or nothing: the new version, the action, the seat
        changes, and whatever else the event changes."""
        with self.sessions.begin() as db:
            self._move_version(db, table_id, expected, new, table_values or {})
            if drop_actions_from is not None:
                db.execute(
                    delete(ActionRow).where(
                        ActionRow.table_id == table_id, ActionRow.seq >= drop_actions_from
                    )
                )
            if action is not None:
                db.add(action)
            for change in seats:
                db.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == change.seat)
                    .values(**change.values)
                )
            if solo is not None:
                db.add(solo)

    def add_chat(self, row: ChatRow) -> ChatRow:
        with self.sessions.begin() as db:
            db.add(row)
            db.flush()
            return row

    def link_next(self, table_id: str, next_id: str) -> None:
        with self.sessions.begin() as db:
            db.execute(update(TableRow).where(TableRow.id == table_id).values(next_id=next_id))


def age_s(when: _dt.datetime) -> float:
    now = _dt.datetime.now(_dt.UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.UTC)
    return (now - when).total_seconds()
