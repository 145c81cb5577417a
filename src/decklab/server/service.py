"""The table service: the orchestration of every change of a table. It knows no transport.

An intent (a seat's action text, the version it was made against and a client
id) is validated with the engine on a copy of the state; the action, the chance
it drew and the table's new version are committed in one transaction; only then
does the table take the new state and the hub (:mod:`.hub`) give each listener its
own event. What may happen at a table (who may join or act, clocks, undo, chat) is
the table's own rules (:mod:`.table`), plain synchronous code; this module holds
what needs the event loop and the database: the tables in memory, their locks,
the commits, and the tasks that run bots, clocks and grace periods. HTTP and
WebSocket are adapters over this; tests drive it directly.

What a table holds in memory is a cache of the database: on start every
table in play is rebuilt by replaying its stored actions through the engine (one
waiting for players is read when asked for), and before every change the stored
version is checked, so several processes can share a PostgreSQL database
(:mod:`.coordination`).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import heapq
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

from decklab.bots.registry import is_fair, make_agent, names_code
from decklab.bots.spec import AgentSpecError
from decklab.engine.chance import Rng
from decklab.engine.errors import DecklabError, OptionError, RecordError
from decklab.engine.registry import get_game
from decklab.engine.state import ALL, GameState, Viewer, seat_name
from decklab.server import bots, dealing, frames, heavy, metrics, pace, trace
from decklab.server.bots import BotPool
from decklab.server.config import Settings
from decklab.server.coordination import Coordinator, LocalCoordinator
from decklab.server.errors import ServiceError, not_found
from decklab.server.hub import Hub
from decklab.server.logline import move_entries
from decklab.server.ratings.rules import aborted_outcome, never_came, rated_seats
from decklab.server.replay import SPECTATOR, rebuild, replay_from, replay_text
from decklab.server.store.committer import GroupCommitter
from decklab.server.store.models import ChatRow, SeatRow, SoloResultRow, TableRow
from decklab.server.store.queries import (
    LoadedTable,
    NewAction,
    SeatChange,
    Store,
    VersionConflict,
    Write,
)
from decklab.server.table import (
    ChatMessage,
    ClockSpec,
    Event,
    Seat,
    SeatSpec,
    Table,
    clean_nickname,
    clean_text,
)
from decklab.server.tokens import hash_token, new_token

log = logging.getLogger("decklab.server")

BOT_RETRY_S = 0.5
"""A bot whose worker failed is asked again after this pause."""


@dataclass
class LiveTable(Table):
    """A table this process holds: the rules' :class:`~.table.Table`, plus the lock
    that lets one change through at a time and the tasks running for it (bots, its
    clock's alarm, grace periods)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    tasks: dict[str, asyncio.Task[Any]] = field(default_factory=dict)


def _now_iso() -> str:
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()


def _seat(row: SeatRow) -> Seat:
    return Seat(
        row.kind,
        row.nickname,
        row.token_hash,
        row.bot_spec,
        row.zombie,
        row.clock_ms,
        account_id=row.account_id,
        token_salt=row.token_salt,
        bot_account=bool(row.bot_account),
        arrived=bool(row.arrived),
    )


def _chat(row: ChatRow) -> ChatMessage:
    return ChatMessage(row.id, row.seat, row.nickname, row.text, row.created_at.isoformat())


class TableService:
    """Every table of this process, and the orchestration of changing them."""

    def __init__(
        self,
        store: Store,
        settings: Settings | None = None,
        pool: BotPool | None = None,
        coordinator: Coordinator | None = None,
        heavy_pool: BotPool | None = None,
    ) -> None:
        self.store = store
        self.committer = GroupCommitter(store)
        self.settings = settings or Settings()
        self.pool = pool
        self.coordinator = coordinator or LocalCoordinator()
        self.tables: dict[str, LiveTable] = {}
        self.hub = Hub(self.coordinator, self.settings.events_kept)
        """Who follows which table, and the sending of their frames."""
        self.process_id = secrets.token_hex(4)
        """Which server process this is (told in ``welcome``; with ``--processes N``
        a connection's moves reach connections held by the others)."""
        self._idle_sweep: asyncio.Task[None] | None = None
        self.closed = False
        self.heavy = heavy.HeavyWork(self.settings, heavy_pool)
        """Where replays, records, hints and statistics are worked out (:mod:`.heavy`)."""
        self._expiry_sweep: asyncio.Task[None] | None = None
        self.wall: Callable[[], float] = time.time
        """Wall-clock seconds, for turn-based deadlines (a test injects its own)."""
        self.ticks: Callable[[], float] = time.monotonic
        """Monotonic seconds, for live clocks and grace periods: every table held here
        reads this one (a test injects its own before any table, then calls
        :meth:`ticks_moved` after moving it)."""
        self._due: list[tuple[float, str]] = []
        """Turn-based tables' next deadlines (a heap; an entry may be out of date)."""
        self._due_changed = asyncio.Event()
        self._deadline_task: asyncio.Task[None] | None = None
        self.finish_listeners: list[Callable[[str], Coroutine[Any, Any, None]]] = []
        """Told the id of each table that ends here (the ratings), off the move's path."""
        self._after_end: set[asyncio.Task[None]] = set()
        self.turn_listeners: list[Callable[[LiveTable, list[int]], None]] = []
        """Told the seats that became to act at a turn-based table (the notifications):
        called on the move's path, so a listener only queues its work."""
        self.muted: dict[int, set[int]] = {}
        """Each account's muted accounts, shared by every table held here (moderation)."""
        self.banned: frozenset[int] = frozenset()
        """The banned accounts (moderation keeps it): a seat of one acts for nobody, even
        in the moment before :meth:`hand_over_banned` takes its token away."""

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Rebuild every table in play from the database and set its bots and clocks going.

        A table still waiting for players has no actions, bots or clocks to set going:
        it is read when asked for (:meth:`table`), so that a start takes as long as the
        tables in play need, however many abandoned ones the database holds."""
        await self.coordinator.start(self)
        for table_id in await asyncio.to_thread(self.store.playing):
            try:
                table = await self._load(table_id)
            except (DecklabError, ValueError) as exc:
                log.error("table %s cannot be rebuilt: %s", table_id, exc)
                continue
            if table is not None:
                await self.coordinator.claim(table_id)
                self._schedule(table)
        if self.settings.idle_table_s > 0:
            self._idle_sweep = asyncio.create_task(self._drop_idle_now_and_then())
        if self.settings.waiting_table_ttl_s > 0:
            self._expiry_sweep = asyncio.create_task(self._expire_now_and_then())
        self._deadline_task = asyncio.create_task(self._deadlines_loop())

    async def _expire_now_and_then(self) -> None:
        every = min(600.0, self.settings.waiting_table_ttl_s / 4)
        while not self.closed:
            try:
                await self.expire_waiting()
            except Exception:
                log.exception("expiring waiting tables failed")
            await asyncio.sleep(every)

    async def expire_waiting(self, ttl_s: float | None = None) -> list[str]:
        """Mark ``expired`` the tables still waiting for players after ``ttl_s``
        (``waiting_table_ttl_s``) without a change: out of the lobby, closed to joining.
        A copy in memory is reloaded and its followers told. Returns the ids expired."""
        ttl = self.settings.waiting_table_ttl_s if ttl_s is None else ttl_s
        gone = await asyncio.to_thread(self.store.expire_waiting, ttl)
        for table_id in gone:
            if table_id in self.tables:
                await self.refresh(table_id)
        if gone:
            log.info("%d waiting tables expired", len(gone))
        return gone

    async def _drop_idle_now_and_then(self) -> None:
        every = min(60.0, self.settings.idle_table_s / 2)
        while not self.closed:
            await asyncio.sleep(every)
            try:
                await self.drop_idle()
            except Exception:
                log.exception("dropping idle tables failed")

    async def drop_idle(self, now: float | None = None) -> list[str]:
        """Let go of the finished tables nobody has followed for ``idle_table_s``: out
        of memory (and, on PostgreSQL, their advisory locks released). Nothing is lost:
        the database holds all of a table, and :meth:`table` reads it back. A table
        with a listener, a running task or a held lock stays. Returns the ids let go."""
        now = time.monotonic() if now is None else now
        gone = [
            table.id
            for table in self.tables.values()
            if table.status in ("finished", "expired")
            and not table.listeners
            and now - table.touched >= self.settings.idle_table_s
            and not table.lock.locked()
            and all(task.done() for task in table.tasks.values())
        ]
        for table_id in gone:
            del self.tables[table_id]
        for table_id in gone:
            await self.coordinator.release(table_id)
        if gone:
            log.info("%d idle tables let go", len(gone))
        return gone

    async def close(self) -> None:
        self.closed = True
        if self._idle_sweep is not None:
            self._idle_sweep.cancel()
        if self._expiry_sweep is not None:
            self._expiry_sweep.cancel()
        if self._deadline_task is not None:
            self._deadline_task.cancel()
        self.heavy.close()
        for table in self.tables.values():
            for task in table.tasks.values():
                task.cancel()
        if self._after_end:  # a rating being written finishes (else the next start does it)
            await asyncio.wait(self._after_end, timeout=5)
        await self.committer.close()
        await self.coordinator.close()

    async def _load(self, table_id: str) -> LiveTable | None:
        loaded = await asyncio.to_thread(self.store.load, table_id)
        if loaded is None:
            return None
        table = self._from_rows(loaded)
        old = self.tables.get(table_id)
        if old is None:
            self.tables[table_id] = table
            return table
        # Update in place: tasks, connections and callers keep holding the same object.
        for index, seat in enumerate(table.seats):
            if index < len(old.seats):
                seat.connections = old.seats[index].connections
                seat.left = old.seats[index].left
                seat.seen = old.seats[index].seen
        for name in (
            "state",
            "seats",
            "version",
            "status",
            "public",
            "clock",
            "turn",
            "setup",
            "seed",
            "secret",
            "outcome",
            "previous_id",
            "next_id",
            "rated",
            "entries",
            "actions",
            "last_action_version",
            "acks",
            "chat",
        ):
            setattr(old, name, getattr(table, name))
        if old.turn is None or old.deadlines is None:
            old.deadlines = table.deadlines  # the deadlines held here stay (they are newer)
        return old

    def _from_rows(self, loaded: LoadedTable) -> LiveTable:
        row = loaded.table
        cls = get_game(row.game)
        if cls.info.version != row.game_version:
            raise RecordError(
                f"table {row.id} is {row.game} version {row.game_version}; "
                f"this decklab plays version {cls.info.version}"
            )
        state, entries = rebuild(
            cls,
            row.num_players,
            dict(row.options),
            dict(row.setup),
            row.seed,
            [(a.actor, a.text, list(a.chance)) for a in loaded.actions],
        )
        seats = [_seat(s) for s in loaded.seats]
        table = LiveTable(
            row.id,
            cls,
            state,
            seats,
            row.version,
            row.status,
            row.public,
            row.clock,
            dict(row.setup),
            row.seed,
            row.outcome,
            row.previous_id,
            row.next_id,
            entries,
            len(loaded.actions),
        )
        table.secret = row.deal_secret
        table.clock, turn = pace.split(row.clock)
        table.set_turn(turn)
        if turn is not None:
            # deadlines outlive a restart: they count from the last move (or the start)
            since = loaded.actions[-1].created_at if loaded.actions else row.updated_at
            table.run_deadlines(pace.epoch(since))
        table.rated = bool(row.rated)
        table.last_action_version = loaded.actions[-1].version if loaded.actions else 0
        table.acks = {
            (a.actor, a.client_id): a.version for a in loaded.actions if a.client_id is not None
        }
        table.chat = [_chat(c) for c in loaded.chat]
        table.muted = self.muted
        table.ticks = self.ticks
        return table

    async def table(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            table = await self._load(table_id)
        if table is None:
            raise not_found(table_id)
        return table

    async def _fresh(self, table: LiveTable) -> LiveTable:
        """The table as the database has it (lock held): reloaded if another process
        moved it on."""
        if not self.coordinator.shared:
            return table
        stored = await asyncio.to_thread(self.store.version, table.id)
        if stored is not None and stored != table.version:
            await self._reload(table)
        return table

    async def refresh(self, table_id: str) -> None:
        """Another process changed this table: reload it and tell our listeners."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            changed = await self._reload(table)
        if changed:
            self._schedule(table)

    async def adopt(self, table_id: str) -> None:
        """This process just claimed the table (its driver is gone): load it and set its
        bots and clocks going."""
        table = await self._load(table_id)
        if table is not None:
            self._schedule(table)

    async def _reload(self, table: LiveTable) -> bool:
        """Reload ``table`` in place from the database (lock held) and publish what changed."""
        before_version, before_entries = table.version, len(table.entries)
        if not await self._read_news(table):
            await self._load(table.id)
        if table.version == before_version:
            return False
        for index, seat in enumerate(table.seats):
            if seat.token_hash is None:  # removed or banned elsewhere: its view is nobody's
                self.hub.demote(table, index)
        added = (
            tuple(table.entries[before_entries:]) if len(table.entries) >= before_entries else ()
        )
        self.hub.publish(table, "update", {}, added)
        return True

    async def _read_news(self, table: LiveTable) -> bool:
        """Bring ``table`` up to the database by applying only the actions it lacks (lock
        held): another process's move costs one move here, not a replay of the game.
        False (nothing changed) when that cannot be done — an action it holds was taken
        back, or the game's version differs — and a full reload is needed."""
        news = await asyncio.to_thread(
            self.store.news, table.id, table.actions, max((m.id for m in table.chat), default=0)
        )
        if news is None or news.table.game_version != table.cls.info.version:
            return False
        known = news.last_known
        if table.actions and (known is None or known.version != table.last_action_version):
            return False
        if news.stored != table.actions + len(news.actions):
            return False
        state, views = table.state, table.views()
        if news.actions:
            state, entries, views = replay_from(
                state,
                [(a.actor, a.text, list(a.chance)) for a in news.actions],
                table.actions + 1,
                views,
            )
        row = news.table
        for index, seat_row in enumerate(news.seats):
            seat = _seat(seat_row)
            if index < len(table.seats):
                seat.connections = table.seats[index].connections
                seat.left = table.seats[index].left
                seat.seen = table.seats[index].seen
                table.seats[index] = seat
            else:
                table.seats.append(seat)
        if news.actions:
            table.state, table._views = state, views
            table.entries.extend(entries)
            table.actions += len(news.actions)
            table.last_action_version = news.actions[-1].version
            for a in news.actions:
                if a.client_id is not None:
                    table.acks[(a.actor, a.client_id)] = a.version
        known_chat = {m.id for m in table.chat}
        table.chat.extend(_chat(c) for c in news.chat if c.id not in known_chat)
        table.version, table.status, table.public = row.version, row.status, row.public
        clock, turn = pace.split(row.clock)
        table.clock, table.outcome = clock, row.outcome
        table.set_turn(turn)
        table.previous_id, table.next_id = row.previous_id, row.next_id
        return True

    # ------------------------------------------------------------ creating
    async def create_table(
        self,
        game: str,
        players: int | None,
        seats: Sequence[SeatSpec],
        *,
        options: dict[str, Any] | None = None,
        public: bool = True,
        clock: ClockSpec | None = None,
        turn: pace.TurnSpec | None = None,
        deal: int | None = None,
        previous_id: str | None = None,
        carry: Sequence[Seat] | None = None,
        rated: bool = False,
    ) -> LiveTable:
        try:
            cls = get_game(game)
        except KeyError as exc:
            raise ServiceError("bad_request", str(exc.args[0])) from None
        n = players if players is not None else (len(seats) or cls.info.default_players)
        if seats and len(seats) != n:
            raise ServiceError("bad_request", f"{len(seats)} seats given for {n} players")
        seat_specs = list(seats) or [SeatSpec() for _ in range(n)]
        if rated and n < 2:
            raise ServiceError("bad_request", "a game played alone is never rated")
        if rated:  # who is rated, and each bot level under its one name (ratings/rules.py)
            seat_specs = rated_seats(seat_specs, carry)
        seed, secret, dealt = dealing.choose(n, deal)
        try:
            state = cls.new(n, options or {}, seed=dealt)
        except OptionError as exc:
            raise ServiceError("bad_option", str(exc)) from None
        for spec in seat_specs:
            if spec.bot is not None:
                self._check_bot(spec.bot)
        if clock is not None and turn is not None:
            raise ServiceError(
                "bad_request", "a table is live (a clock) or turn-based (a deadline), not both"
            )
        clock_json = None if clock is None else clock.to_json()
        turn_json = None if turn is None else turn.to_json()
        table_id = secrets.token_urlsafe(9)
        rows: list[SeatRow] = []
        for index, spec in enumerate(seat_specs):
            kept = carry[index] if carry is not None else None
            account_id = salt = None
            bot_account = False
            if kept is not None and kept.kind == "human":
                kind, nickname, token_hash = "human", kept.nickname, kept.token_hash
                account_id, salt, bot_account = kept.account_id, kept.token_salt, kept.bot_account
            elif spec.account is not None:
                seated = spec.account
                kind, nickname, token_hash = "human", seated.username, seated.token_hash
                account_id, salt, bot_account = seated.account_id, seated.token_salt, True
            elif spec.bot is not None:
                kind, nickname, token_hash = "bot", None, None
            else:
                kind, nickname, token_hash = "open", None, None
            rows.append(
                SeatRow(
                    table_id=table_id,
                    seat=index,
                    kind=kind,
                    nickname=nickname,
                    token_hash=token_hash,
                    bot_spec=spec.bot if kind == "bot" else None,
                    zombie=False,
                    clock_ms=None if clock_json is None or kind == "bot" else clock_json["base_ms"],
                    account_id=account_id,
                    token_salt=salt,
                    bot_account=bot_account,
                )
            )
        status = "playing" if all(r.kind != "open" for r in rows) else "waiting"
        setup = state.export_setup()
        row = TableRow(
            id=table_id,
            game=cls.info.name,
            game_version=cls.info.version,
            num_players=n,
            options=dict(state.options),
            setup=setup,
            seed=seed,
            deal_secret=secret,
            version=1,
            status=status,
            public=public,
            clock=clock_json if turn_json is None else turn_json,
            outcome=None,
            previous_id=previous_id,
            next_id=None,
            rated=rated,
        )
        await asyncio.to_thread(self.store.create, row, rows)
        table = LiveTable(
            table_id,
            cls,
            state,
            [_seat(r) for r in rows],
            1,
            status,
            public,
            clock_json,
            setup,
            seed,
            previous_id=previous_id,
            secret=secret,
            rated=rated,
        )
        table.set_turn(turn_json)
        table.muted = self.muted
        table.ticks = self.ticks
        self.tables[table_id] = table
        table.events.append(Event(1, "created", {}))
        log.info("table created", extra={"table": table_id, "game": cls.info.name, "players": n})
        await self.coordinator.claim(table_id)
        self._schedule(table)
        return table

    def _check_bot(self, spec: str) -> None:
        if len(spec) > 200:
            raise ServiceError("bad_request", "a bot spec is at most 200 characters")
        try:
            if names_code(spec):  # checked before anything is imported
                raise ServiceError(
                    "bad_request",
                    "a bot spec may not name Python code (python:...): "
                    "your own policies play in the lab on your machine",
                )
            if not is_fair(spec):
                raise ServiceError(
                    "bad_request", f"{spec!r} is not a fair bot: it cannot sit at a table"
                )
            make_agent(spec)
        except AgentSpecError as exc:
            raise ServiceError("bad_request", str(exc)) from None

    # ------------------------------------------------------------ seats
    async def join(
        self,
        table_id: str,
        seat_text: str,
        nickname: str,
        *,
        token: str | None = None,
        account: tuple[int, str] | None = None,
        bot_account: bool = False,
        check: Callable[[LiveTable, int], Awaitable[None]] | None = None,
    ) -> tuple[int, str]:
        """Take an open seat; returns the seat and its token (shown only this once).

        ``token`` and ``account`` (its id and the token's salt): a logged-in person's seat,
        whose token is derived from the account's key (:mod:`decklab.server.accounts.seats`)
        so that any of their devices can be handed it again. ``bot_account``: that account
        is a bot account, playing through the bot API. ``check``: the seating rules
        (:mod:`decklab.server.seating`), asked under the table's lock, so that what they
        read of the seats cannot change before the seat is taken."""
        name = clean_nickname(nickname)
        table = await self.table(table_id)
        async with table.lock:
            table = await self._fresh(table)
            seat = table.seat_index(seat_text)
            starting = table.may_join(seat)
            if check is not None:
                await check(table, seat)
            token = token or new_token()
            token_hash = hash_token(token)
            changes: dict[str, Any] = {"kind": "human", "nickname": name, "token_hash": token_hash}
            if table.rated:  # the seat's new person has not come yet (ratings/rules.py)
                changes["arrived"] = False
            if account is not None:
                changes |= {"account_id": account[0], "token_salt": account[1]}
                changes["bot_account"] = bot_account
            status = "playing" if starting else table.status
            await self._commit(
                table,
                seats=[SeatChange(seat, changes)],
                table_values={"status": status},
            )
            table.seated(seat, name, token_hash, status)
            table.seats[seat].arrived = False
            if account is not None:
                table.seats[seat].account_id, table.seats[seat].token_salt = account
                table.seats[seat].bot_account = bot_account
            before = table.waited_for()
            table.run_deadlines(self.wall())
            self._tell_turns(table, before, seat)
            table.seen_now(seat, table.ticks())
            self.hub.publish(table, "join", {"seat": seat_name(seat), "nickname": name})
            if starting:
                self.hub.notice(table, "start", {})
        if starting:  # read lazily while it waited (see start): this process drives it now
            await self.coordinator.claim(table.id)
            self.expect_bot_accounts(table)
        self._schedule(table)
        return seat, token

    async def remove(self, table_id: str, seat_text: str) -> int:
        """The creator removes a person from ``seat_text`` before the start: the seat is
        open again, its token refused, its connections spectators. Returns the seat.
        (Who may ask is checked by :mod:`decklab.server.moderation`.)"""
        table = await self.table(table_id)
        async with table.lock:
            table = await self._fresh(table)
            seat = table.seat_index(seat_text)
            if table.status != "waiting":
                raise ServiceError(
                    "started", "a person can be removed only before the game starts", 409
                )
            if table.seats[seat].kind != "human":
                raise ServiceError("not_seated", f"nobody sits at {seat_name(seat)}", 409)
            changes: dict[str, Any] = {
                "kind": "open",
                "nickname": None,
                "token_hash": None,
                "account_id": None,
                "token_salt": None,
                "bot_account": False,
                "zombie": False,
            }
            await self._commit(table, seats=[SeatChange(seat, changes)])
            task = table.tasks.pop(f"grace{seat}", None)
            if task is not None:
                task.cancel()
            table.removed(seat)
            self.hub.demote(table, seat)
            self.hub.publish(table, "remove", {"seat": seat_name(seat)})
        return seat

    async def seat_bots(self, table_id: str, spec: str) -> str:
        """Give every open seat of a waiting table to the bot ``spec``, which starts the
        game (quick play's fill deadline). A table nobody sits at is discarded instead
        (``expired``: out of the lobby, closed to joining), as bots alone play for nobody.
        Returns the table's status after: ``playing``, ``expired``, or whatever it was
        when it was no longer waiting (then nothing changed)."""
        self._check_bot(spec)
        table = await self.table(table_id)
        async with table.lock:
            table = await self._fresh(table)
            if table.status != "waiting":
                return table.status
            if not any(seat.kind == "human" for seat in table.seats):
                await self._commit(table, table_values={"status": "expired"})
                table.status = "expired"
                self.hub.publish(table, "update", {})
                return "expired"
            empty = [index for index, seat in enumerate(table.seats) if seat.kind == "open"]
            await self._commit(
                table,
                seats=[SeatChange(i, {"kind": "bot", "bot_spec": spec}) for i in empty],
                table_values={"status": "playing"},
            )
            for index in empty:
                table.seats[index].kind, table.seats[index].bot_spec = "bot", spec
            table.status = "playing"
            table.run_deadlines(self.wall())
            self.hub.publish(table, "join", {"seats": [seat_name(i) for i in empty], "bot": spec})
            self.hub.notice(table, "start", {})
        await self.coordinator.claim(table.id)
        self.expect_bot_accounts(table)
        self._schedule(table)
        return "playing"

    async def free_seat(self, table_id: str, token: str | None) -> str:
        """Leave a table before its game starts: the seat is open again for someone else
        (quick play). A table left with no person is discarded (``expired``). Returns the
        table's status after. Once the game has started, leaving is :meth:`leave`."""
        table = await self.table(table_id)
        seat = await self._seat_for(table, token)
        async with table.lock:
            table = await self._fresh(table)
            if table.status != "waiting":
                raise ServiceError(
                    "started", "the game has started: leave it from its table instead", 409
                )
            if table.seats[seat].kind != "human" or table.seat_of(token) != seat:
                raise ServiceError("forbidden", "that token holds no seat here", 403)
            alone = not any(
                other.kind == "human" for i, other in enumerate(table.seats) if i != seat
            )
            opened = {
                "kind": "open",
                "nickname": None,
                "token_hash": None,
                "account_id": None,
                "token_salt": None,
                "bot_account": False,
            }
            status = "expired" if alone else "waiting"
            await self._commit(
                table, seats=[SeatChange(seat, opened)], table_values={"status": status}
            )
            table.seats[seat] = Seat("open")
            table.status = status
            self.hub.publish(table, "update", {"left": seat_name(seat)})
        return status

    def expect_bot_accounts(self, table: LiveTable) -> None:
        """The seats of bot accounts whose program is not connected start their grace
        period: a table never waits for a program that does not come (the stand-in bot
        plays the seat until the program opens its stream)."""
        for index, seat in enumerate(table.seats):
            if seat.bot_account and seat.away:
                self._presence(table, index)

    async def viewer_of(self, table: LiveTable, token: str | None) -> Viewer:
        """:meth:`.Table.viewer`, except that with other processes sharing the tables a
        token this process does not know is first checked against the stored table:
        another process may have seated it a moment ago, before its notice came."""
        try:
            viewer = table.viewer(token)
        except ServiceError:
            if not self.coordinator.shared:
                raise
            async with table.lock:
                await self._fresh(table)
            viewer = table.viewer(token)
        if viewer is not None:
            table.seen_now(viewer, table.ticks())
            await self._arrive(table, viewer)
        return viewer

    async def _arrive(self, table: LiveTable, seat: int) -> None:
        """The seat's token was used: at a rated table, its person has come, and is
        stored so (once per seat and process), so that every process knows its absence
        no longer aborts the table (:func:`.ratings.rules.never_came`)."""
        if table.rated and not table.seats[seat].arrived and table.seats[seat].kind == "human":
            await asyncio.to_thread(self.store.mark_arrived, table.id, seat)
            table.seats[seat].arrived = True

    async def _seat_for(self, table: LiveTable, token: str | None) -> int:
        if not token:
            raise ServiceError("forbidden", "a seat token is needed (spectators may not act)", 403)
        seat = table.seat_of(token)
        if seat is None:  # refused, or seated by another process a moment ago
            seat = await self.viewer_of(table, token)
        assert seat is not None
        if table.seats[seat].account_id in self.banned:
            raise ServiceError("banned", "this seat's account is banned", 403)
        table.seen_now(seat, table.ticks())
        await self._arrive(table, seat)
        return seat

    async def leave(self, table_id: str, token: str) -> None:
        """A person leaves: after the grace period a bot plays their seat (reclaimable)."""
        table = await self.table(table_id)
        seat = await self._seat_for(table, token)
        table.seats[seat].left = True
        self._presence(table, seat)

    async def connected(self, table: LiveTable, viewer: Viewer) -> None:
        """A connection of ``viewer`` opened: its seat is present again (and reclaimed)."""
        if viewer is None:
            return
        await self._arrive(table, viewer)
        reclaim = table.connect(viewer)
        task = table.tasks.pop(f"grace{viewer}", None)
        if task is not None:
            task.cancel()
        if reclaim:
            async with table.lock:
                table = await self._fresh(table)
                if table.may_reclaim(viewer):
                    await self._reclaim(table, viewer)
            self._schedule(table)
        else:
            self.hub.presence(table)

    async def reclaim(self, table_id: str, token: str | None) -> int:
        """The seat's person takes it back from the bot that plays it ("take my seat
        back"): the bot's turn-keeping ends now. Returns the table's version; a seat no
        bot plays is left as it is."""
        table = await self.table(table_id)
        seat = await self._seat_for(table, token)
        async with table.lock:
            table = await self._fresh(table)
            if table.may_reclaim(seat):
                await self._reclaim(table, seat)
            version = table.version
        self._schedule(table)
        return version

    async def _reclaim(self, table: LiveTable, seat: int) -> None:
        """Commit and tell that ``seat``'s person plays it again (lock held). A bot
        still thinking for it is not stopped: its move is refused when it comes
        (:meth:`.Table.bot_may_move`)."""
        changes: dict[str, Any] = {"zombie": False}
        clock_ms = table.reclaim_clock_ms(seat)
        if clock_ms is not None:
            changes["clock_ms"] = clock_ms
        await self._commit(table, seats=[SeatChange(seat, changes)])
        table.reclaimed(seat, table.ticks(), clock_ms)
        self.hub.publish(table, "reclaim", {"seat": seat_name(seat)})

    def disconnected(self, table: LiveTable, viewer: Viewer) -> None:
        if viewer is None:
            return
        table.disconnect(viewer, table.ticks())
        self._presence(table, viewer)

    def _presence(self, table: LiveTable, seat: int) -> None:
        self.hub.presence(table)
        self._arm_grace(table, seat)

    def _arm_grace(self, table: LiveTable, seat: int) -> None:
        """Start ``seat``'s grace period if it is away and none runs yet."""
        if table.needs_grace(seat):
            key = f"grace{seat}"
            if table.seats[seat].seen is None:
                table.seen_now(seat, table.ticks())
            if key not in table.tasks:
                table.tasks[key] = asyncio.create_task(self._grace(table.id, seat))

    async def _grace(self, table_id: str, seat: int) -> None:
        """Wait out ``seat``'s grace period (from its person's last sign of life, so a
        request made with its token meanwhile puts it off); then the absence policy:
        a bot plays it, until its person takes it back."""
        key = f"grace{seat}"
        try:
            wait = self.settings.grace_s
            while True:
                await asyncio.sleep(max(0.0, wait))
                table = await self.table(table_id)
                left = table.grace_left(seat, table.ticks(), self.settings.grace_s)
                if left is None or left <= 0:
                    break
                wait = left
            if table.tasks.get(key) is asyncio.current_task():
                table.tasks.pop(key)
            if left is not None:
                await self._zombie(table, seat, "away")
        except asyncio.CancelledError:
            pass

    def _ended(self, table: LiveTable) -> None:
        """The game is over (its end committed): nobody's grace period matters any more,
        and the finish listeners (the ratings) are told, each in a task of its own."""
        for key in [k for k in table.tasks if k.startswith("grace")]:
            task = table.tasks.pop(key)
            if task is not asyncio.current_task():
                task.cancel()
        for listener in self.finish_listeners:
            told = asyncio.create_task(listener(table.id))
            self._after_end.add(told)
            told.add_done_callback(self._after_end.discard)

    async def _abort_absent(
        self, table: LiveTable, seat: int, seat_values: dict[str, Any] | None = None
    ) -> bool:
        """Abort a rated table whose ``seat`` never came, now that its absence would end
        or hand over the game (lock held): over, nobody wins, nobody is rated, as Lichess
        aborts a game before its first move. False, changing nothing, for any other seat
        (asked of the database too: it may have come through another process)."""
        if not never_came(table, seat):
            return False
        if await asyncio.to_thread(self.store.has_arrived, table.id, seat):
            table.seats[seat].arrived = True
            return False
        outcome = aborted_outcome(table, seat)
        changes = [SeatChange(seat, seat_values)] if seat_values else []
        await self._commit(
            table, table_values={"status": "finished", "outcome": outcome}, seats=changes
        )
        table.status, table.outcome = "finished", outcome
        for key, value in (seat_values or {}).items():
            setattr(table.seats[seat], key, value)
        table.running_since.clear()
        self._ended(table)
        self.hub.publish(table, "end", {"result": outcome, "aborted": seat_name(seat)})
        log.info("rated table aborted", extra={"table": table.id, "seat": seat_name(seat)})
        return True

    async def _zombie(self, table: LiveTable, seat: int, why: str) -> None:
        async with table.lock:
            table = await self._fresh(table)
            if table.seats[seat].zombie or table.finished:
                return
            if why == "away" and await self._abort_absent(table, seat):
                return
            await self._commit(table, seats=[SeatChange(seat, {"zombie": True})])
            table.zombied(seat)
            self.hub.publish(table, "zombie", {"seat": seat_name(seat), "why": why})
            log.info("seat played by a bot", extra={"table": table.id, "seat": seat_name(seat)})
        self._schedule(table)

    async def hand_over_banned(self, table_id: str, account_id: int) -> list[int]:
        """A banned account's seats at the table go to bots for good, as a zombie's do,
        and their tokens are taken away (no token opens them, so nobody takes them back);
        their connections become spectators. A game played alone gets no bot (nobody
        waits for it) but loses its token all the same. Returns the seats handed over."""
        table = await self.table(table_id)
        async with table.lock:
            table = await self._fresh(table)
            if table.finished or table.status not in ("waiting", "playing"):
                return []
            held = [
                i
                for i, s in enumerate(table.seats)
                if s.account_id == account_id and s.token_hash is not None
            ]
            if not held:
                return []
            changes: dict[str, Any] = {"token_hash": None, "token_salt": None}
            if not table.alone:
                changes["zombie"] = True
            await self._commit(table, seats=[SeatChange(i, changes) for i in held])
            for i in held:
                table.seats[i].token_hash = table.seats[i].token_salt = None
                if not table.alone:
                    table.zombied(i)
                task = table.tasks.pop(f"grace{i}", None)
                if task is not None:
                    task.cancel()
                self.hub.demote(table, i)
                self.hub.publish(table, "zombie", {"seat": seat_name(i), "why": "banned"})
            log.info("banned account's seats to bots", extra={"table": table.id})
        self._schedule(table)
        return held

    # ------------------------------------------------------------ acting
    async def act(
        self, table_id: str, token: str | None, text: str, version: int, client_id: str
    ) -> int:
        """Play ``text`` for the token's seat; returns the version that acknowledges it.

        The same client id again is answered with the same version and applied once;
        an intent against another version than the table's is refused as stale.
        """
        started = time.perf_counter()
        if not isinstance(client_id, str) or not 1 <= len(client_id) <= 64:
            raise ServiceError("bad_request", "client_id is 1 to 64 characters")
        table = await self.table(table_id)
        seat = await self._seat_for(table, token)
        async with table.lock:
            if version != table.version and (seat, client_id) not in table.acks:
                # Only then can the database know better than memory (another process
                # moved the table on); otherwise the commit's own version check does.
                table = await self._fresh(table)
            done = table.acks.get((seat, client_id))
            if done is not None:
                return done
            if version == table.version and table.may_reclaim(seat):
                # A move from the seat's own token takes it back from the bot first,
                # and is then played at the version the taking back made.
                await self._reclaim(table, seat)
                version = table.version
            table.may_act(seat, version)
            try:
                acked = await self._apply(table, seat, text, client_id)
            except ServiceError as exc:
                # Another process moved the table on (it is reloaded now): perhaps with
                # this very intent, sent there first; then it is answered, not refused.
                done = table.acks.get((seat, client_id))
                if exc.code != "stale" or done is None:
                    raise
                return done
        self._schedule(table)
        metrics.acked(started)
        return acked

    async def _apply(self, table: LiveTable, seat: int, text: str, client_id: str | None) -> int:
        """Validate on a copy, commit, then take the new state and tell everyone. Lock held."""
        state = table.state
        before_views = table.views()
        waited = table.waited_for()
        try:
            action = before_views.parse(seat, text)
        except DecklabError as exc:
            raise ServiceError("illegal", str(exc), 422) from None
        after = state.clone()
        if table.secret is not None:
            dealing.reseed_for_action(after, table.secret, table.actions + 1)
        elif after.num_players > 1:
            # a table of several made before deal secrets: its seed may have been shown
            after.rng = Rng(secrets.randbits(64))
        canonical = state.action_to_string(seat, action)
        sentence = state.describe_action(seat, action)
        index = len(after.history)
        after.apply(seat, action)
        chance = [str(a) for _, a in after.history[index + 1 :]]
        new_version = table.version + 1
        trace.mark(table.id, new_version, "validated")
        clocks = table.clock_after_move(seat, table.ticks())
        outcome = None
        solo = None
        if after.is_terminal():
            outcome = after.result()
            solo = self._solo_result(table, after)
        await self._commit(
            table,
            table_values={} if outcome is None else {"status": "finished", "outcome": outcome},
            seats=[SeatChange(s, {"clock_ms": ms}) for s, ms in clocks.items()],
            action=NewAction(
                table_id=table.id,
                seq=table.actions + 1,
                actor=seat,
                text=canonical,
                chance=chance,
                client_id=client_id,
                version=new_version,
            ),
            solo=solo,
        )
        trace.mark(table.id, new_version, "committed")
        metrics.moved(table.cls.info.name)
        after_views = frames.Views(after)
        added = move_entries(
            state, after, seat, canonical, sentence, frames.held_views(before_views, after_views)
        )
        table.moved(after, after_views, added, seat, client_id, new_version, clocks, outcome)
        table.run_deadlines(self.wall())  # a turn-based table's new deadlines go out with it
        self._tell_turns(table, waited, seat)
        self.hub.publish(table, "action", {"seat": seat_name(seat)}, tuple(added))
        trace.mark(table.id, new_version, "queued")
        if outcome is not None:
            self._ended(table)
            self.hub.notice(table, "end", {"result": table.outcome})
        return new_version

    async def _commit(
        self,
        table: LiveTable,
        *,
        table_values: dict[str, Any] | None = None,
        seats: Sequence[SeatChange] = (),
        action: NewAction | None = None,
        drop_actions_from: int | None = None,
        solo: SoloResultRow | None = None,
    ) -> None:
        """Write one event with the next version; a conflict means another process won."""
        write = Write(
            table.id,
            table.version,
            table.version + 1,
            table_values or {},
            tuple(seats),
            action,
            drop_actions_from,
            solo,
        )
        try:
            await self.committer.commit(write)
        except VersionConflict:
            await self._reload(table)
            raise ServiceError("stale", "the table moved on meanwhile: try again", 409) from None
        table.version += 1

    def _solo_result(self, table: LiveTable, after: GameState) -> SoloResultRow | None:
        """The statistics row of a game played alone, finished by its person (never one
        a bot finished: a seat a bot played, from a table kept from before solo games
        stopped being handed to bots, is left out)."""
        if after.num_players != 1 or table.seats[0].kind != "human" or table.seats[0].zombie:
            return None
        return SoloResultRow(
            nickname=table.seats[0].nickname or "",
            account_id=table.seats[0].account_id,
            game=after.info.name,
            deal=table.seed if table.seed is not None and table.seed < 2**31 else None,
            score=float(after.scores()[0]),
            perfect=bool(after.winners()),
            table_id=table.id,
        )

    # ------------------------------------------------------------ bots and clocks
    def _schedule(self, table: LiveTable) -> None:
        """Set the table's bots thinking and its clocks running (the alarm set for the
        first to run out), if this process drives it."""
        if self.closed or table.status != "playing" or not self.coordinator.drives(table.id):
            return
        if not self.coordinator.shared:
            # A seat nobody has opened (joined through the API, its page never opened)
            # is away too: the same grace period, then the same policy. With several
            # processes a seat's connections may be held by another one, so only the
            # process that saw a connection close starts its grace period.
            for seat in table.away_seats():
                self._arm_grace(table, seat)
        if table.clock is not None:
            deadline = table.run_clocks(table.ticks())
            old = table.tasks.pop("clock", None)
            if old is not None and old is not asyncio.current_task():
                old.cancel()
            if deadline is not None:
                table.tasks["clock"] = asyncio.create_task(self._clock_alarm(table.id, deadline))
        if table.turn is not None:
            due = table.run_deadlines(self.wall())
            if due is not None:
                self._due_at(due, table.id)
        if self.pool is None:
            return
        for seat in table.bots_to_act():
            table.thinking.add(seat)
            table.tasks[f"bot{seat}"] = asyncio.create_task(self._bot_turn(table.id, seat))

    def ticks_moved(self) -> None:
        """The injected :attr:`ticks` jumped (a test moved it): set every live clock's
        alarm again from the new time, so a clock that ran out by it is applied now.
        Grace periods read the new time when their own wait ends."""
        for table in list(self.tables.values()):
            if table.clock is not None:
                self._schedule(table)

    async def _clock_alarm(self, table_id: str, deadline: float) -> None:
        try:
            await asyncio.sleep(max(0.0, deadline - self.ticks()))
        except asyncio.CancelledError:
            return
        table = await self.table(table_id)
        if table.tasks.get("clock") is asyncio.current_task():
            table.tasks.pop("clock")
        for seat in table.late_seats(table.ticks()):
            await self._timeout(table, seat)
        self._schedule(table)

    # ------------------------------------------------------------ turn-based deadlines
    def _tell_turns(
        self, table: LiveTable, before: set[int], mover: int | None, only: int | None = None
    ) -> None:
        """Tell the turn listeners the seats a turn-based table began to wait for (not
        ``mover``, who is at the table as they act)."""
        if not self.turn_listeners:
            return
        fresh = sorted(table.waited_for() - before - {mover})
        if only is not None:
            fresh = [s for s in fresh if s == only]
        if fresh:
            for listener in self.turn_listeners:
                try:
                    listener(table, fresh)
                except Exception:
                    log.exception("a turn listener failed", extra={"table": table.id})

    def _due_at(self, due: float, table_id: str) -> None:
        """Remember a turn-based table's next deadline; wake the loop if it is the first."""
        first = self._due[0][0] if self._due else None
        heapq.heappush(self._due, (due, table_id))
        if first is None or due < first:
            self._due_changed.set()

    def wall_moved(self) -> None:
        """The wall clock jumped (a step of the system clock, or a test's injected one):
        look at the deadlines again now rather than at the end of the current sleep."""
        self._due_changed.set()

    async def _deadlines_loop(self) -> None:
        """One task for every turn-based table's deadlines: it sleeps until the earliest
        (an idle table costs a heap entry, no task and no CPU), then applies the policy
        of each seat late by then."""
        while not self.closed:
            wait = 3600.0 if not self._due else self._due[0][0] - self.wall()
            if wait > 0:
                self._due_changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._due_changed.wait(), min(wait, 3600.0))
                continue
            try:
                applied = await self.run_deadlines()
            except Exception:
                log.exception("turn-based deadlines failed")
                await asyncio.sleep(BOT_RETRY_S)
                continue
            if not applied and self._due and self._due[0][0] <= self.wall():
                # a late seat whose policy cannot be applied now (no bot workers): look
                # again after a pause rather than spinning on the same past deadline
                await asyncio.sleep(BOT_RETRY_S)

    async def run_deadlines(self) -> list[tuple[str, str]]:
        """Apply the policy of every seat whose deadline has passed by :attr:`wall`, at
        the turn-based tables whose deadline is due; returns (table id, seat) of each."""
        now = self.wall()
        due: set[str] = set()
        while self._due and self._due[0][0] <= now:
            due.add(heapq.heappop(self._due)[1])
        applied = []
        for table_id in sorted(due):
            table = self.tables.get(table_id)
            if table is None or not self.coordinator.drives(table_id):
                continue
            for seat in table.late_for_deadline(now):
                if await self._deadline(table, seat, now):
                    applied.append((table_id, seat_name(seat)))
            self._schedule(table)
        return applied

    async def _deadline(self, table: LiveTable, seat: int, now: float) -> bool:
        """``seat`` let its deadline pass: the table's policy (a bot plays the move, a
        skip where the rules have one, or a forfeit). True if it was applied."""
        policy = table.on_deadline
        state = table.state
        skip = state.skip_action(seat) if policy == "skip" else None
        text: str | None = None
        if policy == "forfeit":
            pass
        elif skip is not None:
            text = state.action_to_string(seat, skip)
        elif self.pool is not None:
            text = await self.pool.choose(self.settings.zombie_spec, state, seat)
        else:
            log.warning("no bot workers for a missed deadline", extra={"table": table.id})
            return False
        async with table.lock:
            table = await self._fresh(table)
            if table.state is not state or seat not in table.late_for_deadline(now):
                return False  # the seat moved meanwhile, or the table moved on
            if await self._abort_absent(table, seat):
                return True
            if text is not None:
                await self._apply(table, seat, text, None)
                if seat in table.waited_for():  # played for them, and to act again
                    self._tell_turns(table, set(), None, only=seat)
                log.info(
                    "deadline: move played", extra={"table": table.id, "seat": seat_name(seat)}
                )
                return True
            outcome = table.forfeit_outcome(seat, "missed the deadline")
            await self._commit(table, table_values={"status": "finished", "outcome": outcome})
            table.forfeited(seat, outcome)
            self._ended(table)
            self.hub.publish(table, "end", {"result": outcome, "deadline": seat_name(seat)})
        return True

    async def _timeout(self, table: LiveTable, seat: int) -> None:
        on_timeout = table.on_timeout
        async with table.lock:
            table = await self._fresh(table)
            if table.finished or seat not in table.running_since:
                return
            table.running_since.pop(seat, None)
            if await self._abort_absent(table, seat, {"clock_ms": 0}):
                return
            if on_timeout == "forfeit":
                outcome = table.forfeit_outcome(seat)
                await self._commit(
                    table,
                    table_values={"status": "finished", "outcome": outcome},
                    seats=[SeatChange(seat, {"clock_ms": 0})],
                )
                table.forfeited(seat, outcome)
                self._ended(table)
                self.hub.publish(table, "end", {"result": outcome, "timeout": seat_name(seat)})
                return
            await self._commit(table, seats=[SeatChange(seat, {"zombie": True, "clock_ms": 0})])
            table.seats[seat].zombie = True
            table.seats[seat].clock_ms = 0
            self.hub.publish(table, "zombie", {"seat": seat_name(seat), "why": "time"})

    async def _bot_turn(self, table_id: str, seat: int) -> None:
        table = self.tables[table_id]
        try:
            spec = table.bot_spec_of(seat, self.settings.zombie_spec)
            assert self.pool is not None
            text = await self.pool.choose(spec, table.state, seat)
            async with table.lock:
                table = await self._fresh(table)
                if table.bot_may_move(seat):
                    try:
                        await self._apply(table, seat, text, None)
                    except ServiceError as exc:
                        log.warning("bot move refused", extra={"table": table_id, "code": exc.code})
        except asyncio.CancelledError:
            return
        except Exception:
            log.exception("bot failed", extra={"table": table_id, "seat": seat_name(seat)})
            # it is tried again below: after a pause, so a failing bot cannot spin the loop
            try:
                await asyncio.sleep(BOT_RETRY_S)
            except asyncio.CancelledError:
                return
        finally:
            table.thinking.discard(seat)
            table.tasks.pop(f"bot{seat}", None)
        self._schedule(table)

    # ------------------------------------------------------------ undo, hints
    async def undo(self, table_id: str, token: str | None, version: int) -> int:
        """Take back the seat's last action (a game played alone only)."""
        table = await self.table(table_id)
        seat = await self._seat_for(table, token)
        async with table.lock:
            table = await self._fresh(table)
            if version != table.version:
                raise ServiceError("stale", f"the table is at version {table.version}", 409)
            keep = table.undo_keep(seat)
            loaded = await asyncio.to_thread(self.store.load, table.id)
            assert loaded is not None
            kept = [(a.actor, a.text, list(a.chance)) for a in loaded.actions[:keep]]
            state, entries = rebuild(
                table.cls,
                table.state.num_players,
                table.state.options,
                table.setup,
                table.seed,
                kept,
            )
            state.rng = table.state.rng.copy()
            await self._commit(table, drop_actions_from=keep + 1)
            table.state, table.entries, table.actions = state, entries, keep
            table.last_action_version = loaded.actions[keep - 1].version if keep else 0
            table.acks = (
                {k: v for k, v in table.acks.items() if v <= loaded.actions[keep - 1].version}
                if keep
                else {}
            )
            self.hub.publish(table, "undo", {"seat": seat_name(seat), "actions": keep})
            return table.version

    async def hint(
        self, table_id: str, token: str | None, *, address: str | None = None
    ) -> dict[str, Any]:
        """What the expert would play for the seat, and why (a game played alone only).

        Worked out in the heavy pool, not the bots' (a client asking for hint after hint
        must not slow other tables' bots), within the asker's share (:meth:`.heavy.HeavyWork.run`)."""
        table = await self.table(table_id)
        seat = await self._seat_for(table, token)
        if table.state.num_players != 1:
            raise ServiceError("no_hint", "hints are for a game played alone", 409)
        if seat not in table.state.to_act() or table.status != "playing":
            raise ServiceError("no_hint", "it is not this seat's turn", 409)
        pool = self.heavy.workers() or self.pool
        if pool is None:
            raise ServiceError("no_hint", "this server has no bot workers", 503)
        sample = pool.sample(table.state, seat)
        got = await self.heavy.run(address, bots.hint, self.settings.hint_spec, sample, seat)
        return {
            "action": got.action,
            "reason": got.reason,
            "explanation": got.explanation,
            "runner_up": got.runner_up,
            "margin": got.margin,
            "unit": got.unit,
            "version": str(table.version),
        }

    # ------------------------------------------------------------ chat
    async def chat(self, table_id: str, token: str | None, text: str) -> ChatMessage:
        table = await self.table(table_id)
        seat = await self._seat_for(table, token)
        body = clean_text(text, self.settings.chat_max_chars)
        settings = self.settings
        table.note_chat(seat, time.monotonic(), settings.chat_window_s, settings.chat_burst)
        nickname = table.seats[seat].nickname or seat_name(seat)
        row = await asyncio.to_thread(
            self.store.add_chat, ChatRow(table_id=table.id, seat=seat, nickname=nickname, text=body)
        )
        message = ChatMessage(row.id, seat, nickname, body, _now_iso())
        table.chat.append(message)
        await self.hub.say(table, message)
        return message

    def remote_chat(self, table_id: str, message: dict[str, Any]) -> None:
        table = self.tables.get(table_id)
        if table is not None and table.add_remote_chat(message):
            seat = table.chat[-1].seat
            self.hub.send_all(table, lambda viewer: None if table.hides(viewer, seat) else message)

    # ------------------------------------------------------------ play again
    async def play_again(self, table_id: str, token: str | None) -> LiveTable:
        """A new table of the same game with the same seats (people keep their tokens)."""
        table = await self.table(table_id)
        await self._seat_for(table, token)
        if not table.finished:
            raise ServiceError("not_finished", "play again once the game is over", 409)
        if table.next_id is not None:
            return await self.table(table.next_id)
        specs = [SeatSpec(s.bot_spec if s.kind == "bot" else None) for s in table.seats]
        new = await self.create_table(
            table.cls.info.name,
            table.state.num_players,
            specs,
            options=dict(table.state.options),
            public=table.public,
            clock=None if table.clock is None else ClockSpec.from_json(table.clock),
            turn=None if table.turn is None else pace.TurnSpec.from_json(table.turn),
            previous_id=table.id,
            carry=table.seats,
            rated=table.rated,
        )
        table.next_id = new.id
        await asyncio.to_thread(self.store.link_next, table.id, new.id)
        self.hub.send_all(table, lambda _v: {"type": "again", "table": table.id, "next": new.id})
        return new

    # ------------------------------------------------------------ records, replay
    async def record(
        self, table_id: str, token: str | None, *, address: str | None = None
    ) -> dict[str, Any]:
        """The full record once the game is over; during play, the asker's redacted copy."""
        return dict(json.loads(await self.record_text(table_id, token, address=address)))

    async def record_text(
        self, table_id: str, token: str | None, *, address: str | None = None
    ) -> str:
        """:meth:`record` as JSON text, made and encoded in the heavy pool."""
        table = await self.table(table_id)
        viewer = await self.viewer_of(table, token)
        # The state is handed over as it is: installed states are never changed in place.
        return await self.heavy.run(
            address,
            heavy.record_of,
            table.state,
            table.players(),
            ALL if table.finished else viewer,
            table.outcome if table.finished else None,
        )

    async def replay(
        self,
        table_id: str,
        token: str | None,
        step: int,
        as_seat: str | None,
        *,
        address: str | None = None,
    ) -> str:
        """The table after its first ``step`` actions, as a seat or a spectator saw it then
        (JSON text, made and encoded in the heavy pool).

        During play only the asker's own seat or the spectator's side may be asked for.
        The game is rebuilt in the heavy pool; a finished table's answers are kept.
        """
        table = await self.table(table_id)
        viewer = await self.viewer_of(table, token)
        wanted: Viewer = (
            None if as_seat in (None, "", SPECTATOR) else table.seat_index(as_seat or "")
        )
        if not table.finished and wanted is not None and wanted != viewer:
            raise ServiceError(
                "forbidden", "during play only your own seat's side may be replayed", 403
            )
        if not 0 <= step <= table.actions:
            raise ServiceError("bad_request", f"step is 0 to {table.actions}")
        reader = seat_name(viewer) if viewer is not None else None
        key = (table.id, table.version, step, wanted, reader)
        text = self.heavy.replays.get(key) if table.finished else None
        if text is None:
            with self.heavy.gate.share(address):  # the reading of the actions too
                lines = await asyncio.to_thread(self.store.action_lines, table.id, step)
                text = await self.heavy.work(
                    replay_text,
                    {"table": table.id, "step": step, "steps": table.actions},
                    table.cls.info.name,
                    table.state.num_players,
                    dict(table.state.options),
                    table.setup,
                    table.seed,
                    lines,
                    wanted,
                    reader,
                )
            if table.finished:
                self.heavy.replays.put(key, text)
        return text

    # ------------------------------------------------------------ listings
    async def public_tables(self) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.store.public_tables)
        out = []
        for row, seats in rows:
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "players": row.num_players,
                    "status": row.status,
                    "rated": bool(row.rated),
                    "open_seats": [seat_name(s.seat) for s in seats if s.kind == "open"],
                    "seats": [
                        {
                            "seat": seat_name(s.seat),
                            "kind": s.kind,
                            "nickname": s.nickname,
                            "bot": s.bot_spec,
                            "bot_account": bool(s.bot_account),
                        }
                        for s in seats
                    ],
                }
            )
        return out

    async def stats(
        self,
        nickname: str,
        game: str | None = None,
        *,
        address: str | None = None,
        account_id: int | None = None,
    ) -> dict[str, Any]:
        """A nickname's solo statistics per game: games, perfect, average, best, streaks, deals
        (worked out in the heavy pool: a keen player's thousands of games are many rows)."""
        with self.heavy.gate.share(address):
            rows = await asyncio.to_thread(self.store.solo_results, nickname, game, account_id)
            plain = [(r.game, r.deal, r.score, r.perfect) for r in rows]
            out: dict[str, Any] = await self.heavy.work(heavy.solo_stats, plain, game)
            unfinished = await asyncio.to_thread(self.store.unfinished_solo, nickname, game)
        # games started and not finished by their person (left, or lost on time) are
        # counted apart: never in the games, averages or best scores
        for name, count in unfinished.items():
            if name not in out:
                out.update(heavy.solo_stats([], name))
            out[name]["unfinished"] = count
        for entry in out.values():
            entry.setdefault("unfinished", 0)
        return out
