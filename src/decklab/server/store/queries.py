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

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql.expression import Executable, Update

from decklab.server.store.db import commit_engine
from decklab.server.store.models import (
    ActionRow,
    ChatRow,
    SeatRow,
    SoloResultRow,
    TableRow,
    utcnow,
)


def _table(model: type[Any]) -> Table:
    table = model.__table__
    assert isinstance(table, Table)
    return table


TABLES, SEATS, ACTIONS, SOLO = (_table(m) for m in (TableRow, SeatRow, ActionRow, SoloResultRow))


def _columns(row: Any) -> dict[str, Any]:
    """A new row's set columns, for a Core insert (unset ones take their defaults)."""
    table = row.__table__
    values = {c.key: getattr(row, c.key, None) for c in table.columns}
    return {k: v for k, v in values.items() if v is not None}


class VersionConflict(Exception):
    """The table moved on in the database (another process wrote first)."""


@dataclass(frozen=True)
class LoadedTable:
    table: TableRow
    seats: list[SeatRow]
    actions: list[ActionRow]
    chat: list[ChatRow]


@dataclass(frozen=True)
class TableNews:
    """What a table has in the database beyond what a process already holds: the table
    and seat rows, the actions after the ones it holds (and the one it holds last, to
    check it is still there), the chat after its last message, and how many actions
    are stored in all."""

    table: TableRow
    seats: list[SeatRow]
    last_known: ActionRow | None
    actions: list[ActionRow]
    chat: list[ChatRow]
    stored: int


@dataclass(frozen=True)
class SeatChange:
    seat: int
    values: dict[str, Any]


@dataclass(frozen=True)
class NewAction:
    """An action to be stored (a row of ``actions``): a plain record rather than an
    ORM instance, which costs more to build than the row costs to write."""

    table_id: str
    seq: int
    actor: int
    text: str
    chance: list[str]
    client_id: str | None
    version: int

    def values(self, now: _dt.datetime) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "seq": self.seq,
            "actor": self.actor,
            "text": self.text,
            "chance": self.chance,
            "client_id": self.client_id,
            "version": self.version,
            "created_at": now,
        }


@dataclass(frozen=True)
class Write:
    """One event of a table as it is written: move the version from ``expected`` to
    ``new`` and change what the event changes."""

    table_id: str
    expected: int
    new: int
    table_values: dict[str, Any]
    seats: tuple[SeatChange, ...] = ()
    action: NewAction | None = None
    drop_actions_from: int | None = None
    solo: SoloResultRow | None = None


class Store:
    """Synchronous queries; the service runs them off the event loop."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self._writer = commit_engine(engine)
        self._statements: dict[tuple[str, ...], Executable] = {}
        self._action_insert = insert(ACTIONS)

    def close(self) -> None:
        if self._writer is not self.engine:
            self._writer.dispose()
        self.engine.dispose()

    # ------------------------------------------------------------ reading
    def load(self, table_id: str) -> LoadedTable | None:
        with self.sessions() as db:
            table = db.get(TableRow, table_id)
            if table is None:
                return None
            seats = _seats_of(db, table_id)
            return LoadedTable(table, seats, _actions_of(db, table_id), _chat_of(db, table_id))

    def news(self, table_id: str, after_seq: int, after_chat: int) -> TableNews | None:
        """What :class:`TableNews` says, in one read transaction."""
        with self.sessions() as db:
            table = db.get(TableRow, table_id)
            if table is None:
                return None
            seats = _seats_of(db, table_id)
            actions = _actions_of(db, table_id, max(1, after_seq))
            last_known = None
            if after_seq > 0 and actions and actions[0].seq == after_seq:
                last_known = actions.pop(0)
            stored = db.scalar(
                select(func.coalesce(func.max(ActionRow.seq), 0)).where(
                    ActionRow.table_id == table_id
                )
            )
            chat = _chat_of(db, table_id, after_chat)
            return TableNews(table, seats, last_known, actions, chat, int(stored or 0))

    def action_lines(self, table_id: str, count: int) -> list[tuple[int, str, list[str]]]:
        """A table's first ``count`` actions as plain (actor, text, chance) tuples, read
        without ORM objects: what a replay hands its worker (the ORM's objects for a
        long game took the GIL from the event loop for tens of milliseconds)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ACTIONS.c.actor, ACTIONS.c.text, ACTIONS.c.chance)
                .where(ACTIONS.c.table_id == table_id)
                .order_by(ACTIONS.c.seq)
                .limit(count)
            )
            return [(int(actor), str(text), list(chance or ())) for actor, text, chance in rows]

    def ping(self) -> None:
        """Raise unless the database answers and would take a write now (readiness):
        PostgreSQL a ``SELECT 1``; SQLite takes its write lock and lets it go at once (a
        read passes even while another connection holds the lock that stops every move)."""
        with self.engine.connect() as conn:
            if self.engine.dialect.name == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                conn.exec_driver_sql("ROLLBACK")
            else:
                conn.exec_driver_sql("SELECT 1")

    def version(self, table_id: str) -> int | None:
        with self.sessions() as db:
            return db.scalar(select(TableRow.version).where(TableRow.id == table_id))

    def playing(self) -> list[str]:
        """The tables in play (a table waiting for players has nothing to set going)."""
        with self.sessions() as db:
            rows = db.scalars(
                select(TableRow.id)
                .where(TableRow.status == "playing")
                .order_by(TableRow.created_at)
            )
            return list(rows)

    def expire_waiting(self, ttl_s: float) -> list[str]:
        """Mark ``expired`` (and move the version of) every table still waiting for players
        whose last change is older than ``ttl_s``; returns their ids."""
        cutoff = utcnow() - _dt.timedelta(seconds=ttl_s)
        with self.sessions.begin() as db:
            return list(
                db.scalars(
                    update(TableRow)
                    .where(TableRow.status == "waiting", TableRow.updated_at < cutoff)
                    .values(status="expired", version=TableRow.version + 1, updated_at=utcnow())
                    .returning(TableRow.id)
                )
            )

    def public_tables(self, limit: int = 200) -> list[tuple[TableRow, list[SeatRow]]]:
        with self.sessions() as db:
            tables = list(
                db.scalars(
                    select(TableRow)
                    .where(TableRow.public.is_(True), TableRow.status.in_(("waiting", "playing")))
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

    def solo_results(
        self, nickname: str, game: str | None = None, account_id: int | None = None
    ) -> list[SoloResultRow]:
        """An account's results (``account_id``), else a guest nickname's: the games played
        under that name by nobody's account (an account's name is its own)."""
        with self.sessions() as db:
            query = select(SoloResultRow).where(
                SoloResultRow.account_id == account_id
                if account_id is not None
                else (SoloResultRow.nickname == nickname) & SoloResultRow.account_id.is_(None)
            )
            if game is not None:
                query = query.where(SoloResultRow.game == game)
            return list(db.scalars(query.order_by(SoloResultRow.finished_at, SoloResultRow.id)))

    def unfinished_solo(self, nickname: str, game: str | None = None) -> dict[str, int]:
        """How many games played alone ``nickname`` started and did not finish, per game
        (left, or lost on time): shown beside the statistics, never counted in them."""
        with self.sessions() as db:
            query = (
                select(TableRow.game, func.count())
                .join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(
                    SeatRow.nickname == nickname,
                    SeatRow.kind == "human",
                    TableRow.num_players == 1,
                    TableRow.status.in_(("playing", "finished")),
                    TableRow.id.not_in(select(SoloResultRow.table_id)),
                    select(ActionRow.seq).where(ActionRow.table_id == TableRow.id).exists(),
                )
                .group_by(TableRow.game)
            )
            if game is not None:
                query = query.where(TableRow.game == game)
            return {name: int(count) for name, count in db.execute(query)}

    # ------------------------------------------------------------ writing
    def create(self, table: TableRow, seats: Sequence[SeatRow]) -> None:
        with self.sessions.begin() as db:
            db.add(table)
            db.flush()
            db.add_all(seats)

    def commit(
        self,
        table_id: str,
        expected: int,
        new: int,
        *,
        table_values: dict[str, Any] | None = None,
        seats: Sequence[SeatChange] = (),
        action: NewAction | None = None,
        drop_actions_from: int | None = None,
        solo: SoloResultRow | None = None,
    ) -> None:
        """One event of a table, all or nothing: the new version, the action, the seat
        changes, and whatever else the event changes."""
        request = Write(
            table_id,
            expected,
            new,
            table_values or {},
            tuple(seats),
            action,
            drop_actions_from,
            solo,
        )
        error = self._commit_one(request)
        if error is not None:
            raise error

    def commit_many(self, writes: Sequence[Write]) -> list[Exception | None]:
        """Several tables' events in one transaction (group commit: one fsync for all).

        The common case — a batch of moves, each of another table — is written as a
        few ``executemany`` statements (every version move in one, every action in
        another), checked by their row counts: one round trip per kind of statement,
        not per move, so a busy server's commit thread spends its time in the
        database rather than in Python. Otherwise (a version that does not match, a
        table twice in the batch), each write's statements run in turn in one
        transaction: a write whose version does not match changed nothing and is
        answered with :class:`VersionConflict` while the others go on. If the
        transaction fails as a whole (a constraint, a lost connection), each write is
        tried again alone, so one bad write cannot take the others down. Nothing is
        answered before the transaction has committed.
        """
        if len(writes) == 1:
            return [self._commit_one(writes[0])]
        if len({w.table_id for w in writes}) == len(writes):
            try:
                with self._writer.begin() as conn:
                    self._write_batch(conn, writes)
                return [None] * len(writes)
            except Exception:  # a conflict, or anything else: the careful way below
                pass
        results: list[Exception | None] = []
        try:
            with self._writer.begin() as conn:
                for write in writes:
                    try:
                        self._write_batch(conn, [write])
                        results.append(None)
                    except VersionConflict as exc:
                        results.append(exc)
        except Exception:
            return [self._commit_one(write) for write in writes]
        return results

    def _version_update(self, keys: tuple[str, ...]) -> Update:
        """``UPDATE game_tables SET version, updated_at, KEYS… WHERE id AND version`` with
        bound parameters: made once per set of columns and kept, so that SQLAlchemy
        finds it compiled (building and hashing a statement per commit was most of the
        commit thread's work)."""
        statement = self._statements.get(("tables", *keys))
        if statement is None:
            statement = (
                update(TABLES)
                .where(
                    TABLES.c.id == bindparam("b_id"), TABLES.c.version == bindparam("b_expected")
                )
                .values(
                    version=bindparam("b_new"),
                    updated_at=bindparam("b_at"),
                    **{k: bindparam(f"b_{k}") for k in keys},
                )
            )
            self._statements[("tables", *keys)] = statement
        assert isinstance(statement, Update)
        return statement

    def _seat_update(self, keys: tuple[str, ...]) -> Update:
        """``UPDATE seats SET KEYS… WHERE table_id AND seat``, kept like :meth:`_version_update`."""
        statement = self._statements.get(("seats", *keys))
        if statement is None:
            statement = (
                update(SEATS)
                .where(SEATS.c.table_id == bindparam("b_id"), SEATS.c.seat == bindparam("b_seat"))
                .values(**{k: bindparam(f"b_{k}") for k in keys})
            )
            self._statements[("seats", *keys)] = statement
        assert isinstance(statement, Update)
        return statement

    def _write_batch(self, conn: Connection, writes: Sequence[Write]) -> None:
        """Every write of the batch (distinct tables), statement kind by statement kind;
        raises :class:`VersionConflict` (the caller rolls back) if any version did not
        match."""
        now = utcnow()
        groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for write in writes:
            keys = tuple(sorted(write.table_values))
            groups.setdefault(keys, []).append(
                {
                    "b_id": write.table_id,
                    "b_expected": write.expected,
                    "b_new": write.new,
                    "b_at": now,
                    **{f"b_{k}": v for k, v in write.table_values.items()},
                }
            )
        moved = 0
        for keys, rows in groups.items():
            moved += conn.execute(self._version_update(keys), rows).rowcount
        if moved != len(writes):
            raise VersionConflict(writes[0].table_id if len(writes) == 1 else "one of the batch")
        for write in writes:
            if write.drop_actions_from is not None:
                conn.execute(
                    delete(ACTIONS).where(
                        ACTIONS.c.table_id == write.table_id,
                        ACTIONS.c.seq >= write.drop_actions_from,
                    )
                )
        actions = [w.action.values(now) for w in writes if w.action is not None]
        if actions:
            conn.execute(self._action_insert, actions)
        seat_groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for write in writes:
            for change in write.seats:
                keys = tuple(sorted(change.values))
                seat_groups.setdefault(keys, []).append(
                    {
                        "b_id": write.table_id,
                        "b_seat": change.seat,
                        **{f"b_{k}": v for k, v in change.values.items()},
                    }
                )
        for keys, rows in seat_groups.items():
            conn.execute(self._seat_update(keys), rows)
        solos = [_columns(w.solo) for w in writes if w.solo is not None]
        for solo in solos:
            conn.execute(insert(SOLO).values(**solo))

    def _commit_one(self, write: Write) -> Exception | None:
        """One write in its own transaction, by the same kept statements as a batch;
        what refused it (a :class:`VersionConflict`, a database error) is returned."""
        for attempt in (1, 2):
            try:
                with self._writer.begin() as conn:
                    self._write_batch(conn, [write])
            except DBAPIError as exc:
                # A connection the database dropped (the commit engine does not ping
                # before use): SQLAlchemy has discarded it; the write goes again once,
                # on a fresh one. It changed nothing: its transaction never committed.
                if exc.connection_invalidated and attempt == 1:
                    continue
                return exc
            except Exception as exc:
                return exc
            return None
        return None

    def checkpoint(self) -> None:
        """SQLite: copy the WAL back into the database file without blocking writers
        (PASSIVE), so that commits never do it themselves; PostgreSQL: nothing to do."""
        if self.engine.dialect.name != "sqlite":
            return
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def add_chat(self, row: ChatRow) -> ChatRow:
        with self.sessions.begin() as db:
            db.add(row)
            db.flush()
            return row

    def link_next(self, table_id: str, next_id: str) -> None:
        with self.sessions.begin() as db:
            db.execute(update(TableRow).where(TableRow.id == table_id).values(next_id=next_id))

    def mark_arrived(self, table_id: str, seat: int) -> None:
        """The seat's token was used (a rated table's seat arrived). No new version: a
        fact about the seat's person, not a change of the game."""
        with self.sessions.begin() as db:
            db.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(arrived=True)
            )

    def has_arrived(self, table_id: str, seat: int) -> bool:
        """Whether the seat arrived, through any process (see :meth:`mark_arrived`)."""
        with self.sessions() as db:
            return bool(
                db.scalar(
                    select(SeatRow.arrived).where(
                        SeatRow.table_id == table_id, SeatRow.seat == seat
                    )
                )
            )

    # ------------------------------------------------------------ retention
    def delete_chat_before(self, cutoff: _dt.datetime) -> int:
        """Chat lines written before ``cutoff`` deleted; returns how many."""
        with self.sessions.begin() as db:
            gone = db.execute(delete(ChatRow).where(ChatRow.created_at < cutoff))
            return int(getattr(gone, "rowcount", 0) or 0)

    def delete_finished_before(self, cutoff: _dt.datetime, limit: int = 500) -> list[str]:
        """Up to ``limit`` finished tables last changed before ``cutoff`` deleted, with
        their seats, actions and chat (explicitly: not every database enforces the
        foreign keys' cascade); solo statistics stay. Returns the ids deleted."""
        with self.sessions.begin() as db:
            ids = list(
                db.scalars(
                    select(TableRow.id)
                    .where(TableRow.status == "finished", TableRow.updated_at < cutoff)
                    .limit(limit)
                )
            )
            if ids:
                for model in (ChatRow, ActionRow, SeatRow):
                    db.execute(delete(model).where(model.table_id.in_(ids)))
                db.execute(delete(TableRow).where(TableRow.id.in_(ids)))
            return ids


def age_s(when: _dt.datetime) -> float:
    now = _dt.datetime.now(_dt.UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.UTC)
    return (now - when).total_seconds()


def _seats_of(db: Session, table_id: str) -> list[SeatRow]:
    """A table's seats in seat order."""
    return list(
        db.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
    )


def _actions_of(db: Session, table_id: str, from_seq: int = 1) -> list[ActionRow]:
    """A table's actions from number ``from_seq`` on, in order."""
    return list(
        db.scalars(
            select(ActionRow)
            .where(ActionRow.table_id == table_id, ActionRow.seq >= from_seq)
            .order_by(ActionRow.seq)
        )
    )


def _chat_of(db: Session, table_id: str, after: int = 0) -> list[ChatRow]:
    """A table's chat lines after line id ``after``, in order."""
    return list(
        db.scalars(
            select(ChatRow)
            .where(ChatRow.table_id == table_id, ChatRow.id > after)
            .order_by(ChatRow.id)
        )
    )
