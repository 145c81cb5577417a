"""The table service: the one place where a table changes. It knows no transport.

An intent (a seat's action text, the version it was made against and a client
id) is validated with the engine on a copy of the state; the action, the chance
it drew and the table's new version are committed in one transaction; only then
does the table take the new state and each listener get its own event, built by
:mod:`.frames` from what its viewer may know. HTTP and WebSocket are adapters over
this; tests drive it directly.

What a table holds in memory is a cache of the database: on start every
table in play is rebuilt by replaying its stored actions through the engine (one
waiting for players is read when asked for), and before every change the stored version is checked, so several processes
can share a PostgreSQL database (:mod:`.coordination`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from decklab.bots.registry import is_fair, make_agent
from decklab.bots.spec import AgentSpecError
from decklab.engine.chance import Rng
from decklab.engine.errors import DecklabError, OptionError, RecordError
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import ALL, CHANCE, GameState, Viewer, seat_index, seat_name
from decklab.server import bots, dealing, frames, heavy, metrics, trace
from decklab.server.bots import BotPool
from decklab.server.config import Settings
from decklab.server.coordination import Coordinator, LocalCoordinator
from decklab.server.logline import Entry, move_entries
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
from decklab.server.tokens import hash_token, matches, new_token

log = logging.getLogger("decklab.server")
T = TypeVar("T")

SPECTATOR = "spectator"
TIMEOUT_ACTIONS = ("bot", "forfeit")
BOT_RETRY_S = 0.5
"""A bot whose worker failed is asked again after this pause."""
HEAVY_NICE = 10
"""The heavy workers run at a lower priority than the server: on a machine with fewer
free cores than busy workers, the event loop still gets the processor when it wakes."""


class ServiceError(Exception):
    """A refused request: a code for programs, a message for people, an HTTP status.

    The message never names a hidden card: it comes from the engine's
    explanations (which use only what the seat may see) or from this module.
    """

    def __init__(
        self, code: str, message: str, status: int = 400, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
        """Seconds after which asking again may succeed (sent as ``Retry-After``)."""


def not_found(table_id: str) -> ServiceError:
    return ServiceError("not_found", f"no table {table_id!r}", 404)


@dataclass
class SeatSpec:
    """A seat as the creator asks for it: open for a person, or a bot spec."""

    bot: str | None = None


@dataclass
class ClockSpec:
    """Fischer clock: ``base_s`` for the game plus ``increment_s`` per move."""

    base_s: float
    increment_s: float = 0.0
    on_timeout: str = "bot"


@dataclass
class Seat:
    kind: str
    nickname: str | None = None
    token_hash: str | None = None
    bot_spec: str | None = None
    zombie: bool = False
    clock_ms: int | None = None
    connections: int = 0
    left: bool = False

    def public(self, index: int) -> dict[str, Any]:
        return {
            "seat": seat_name(index),
            "kind": self.kind,
            "nickname": self.nickname,
            "bot": self.bot_spec if self.kind == "bot" else None,
            "zombie": self.zombie,
            "present": self.kind == "bot" or (self.connections > 0 and not self.left),
        }

    @property
    def played_by_bot(self) -> bool:
        return self.kind == "bot" or self.zombie


@dataclass(frozen=True)
class Event:
    """A change of the table, kept for reconnects: its version, kind, public detail,
    and the history entries it added (log lines are redacted per viewer when sent)."""

    version: int
    kind: str
    detail: dict[str, Any]
    entries: tuple[Entry, ...] = ()


@dataclass(frozen=True)
class Encoded:
    """A frame already written as text (:func:`frames.encode`), with what a writer
    needs to know of it without reading it again."""

    text: str
    type: str
    version: int | None


@dataclass
class Listener:
    """A connection (or a test) following a table as one viewer; frames go to ``queue``.

    An ``encoded`` listener (a WebSocket) is handed the table's frames as
    :class:`Encoded` text, made once per viewer and event however many
    connections share the viewer: the frame's dicts are dropped as soon as it is
    written out instead of living in every queue until a writer gets to it (the
    garbage collector walked them again and again on a busy server). Frames the
    connection itself queues (acks, errors) stay dicts."""

    viewer: Viewer
    queue: asyncio.Queue[dict[str, Any] | Encoded]
    overflowed: bool = False
    encoded: bool = False


@dataclass
class ChatMessage:
    id: int
    seat: int
    nickname: str
    text: str
    at: str

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "chat",
            "id": self.id,
            "from": seat_name(self.seat),
            "nickname": self.nickname,
            "text": self.text,
            "at": self.at,
        }


@dataclass
class Table:
    id: str
    cls: type[GameState]
    state: GameState
    seats: list[Seat]
    version: int
    status: str
    public: bool
    clock: dict[str, Any] | None
    setup: dict[str, Any]
    seed: int | None
    """A game played alone: its public deal number. None at a table of several."""
    outcome: dict[str, Any] | None = None
    previous_id: str | None = None
    next_id: str | None = None
    entries: list[Entry] = field(default_factory=list)
    actions: int = 0
    last_action_version: int = 0
    """The version the last action held here created: another process that took it
    back (undo) and played on is told apart from one that only played on."""
    acks: dict[tuple[int, str], int] = field(default_factory=dict)
    events: deque[Event] = field(default_factory=deque)
    chat: list[ChatMessage] = field(default_factory=list)
    chat_times: dict[int, deque[float]] = field(default_factory=dict)
    listeners: set[int] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    thinking: set[int] = field(default_factory=set)
    running_since: dict[int, float] = field(default_factory=dict)
    tasks: dict[str, asyncio.Task[Any]] = field(default_factory=dict)
    touched: float = field(default_factory=time.monotonic)
    """When it last changed or was last followed (for :meth:`TableService.drop_idle`)."""
    secret: bytes | None = None
    """A table of several players' deal secret (:mod:`.dealing`): shown to nobody before
    the end, and the source of all its chance."""
    _views: frames.Views | None = None

    def views(self) -> frames.Views:
        """The viewers' views of the current state, each made once (see :class:`frames.Views`)."""
        held = self._views
        if held is None or held.state is not self.state:
            held = self._views = frames.Views(self.state)
        return held

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds here (checked in constant time against every seat)."""
        found = None
        for index, seat in enumerate(self.seats):
            if matches(token, seat.token_hash):
                found = index
        return found


def _encoded(frame: dict[str, Any]) -> Encoded:
    version = frame.get("version")
    return Encoded(
        frames.encode(frame), str(frame.get("type")), version if isinstance(version, int) else None
    )


# ------------------------------------------------------------------ replay
def rebuild(
    cls: type[GameState],
    num_players: int,
    options: dict[str, Any],
    setup: dict[str, Any],
    seed: int | None,
    actions: Sequence[tuple[int, str, Sequence[str]]],
) -> tuple[GameState, list[Entry]]:
    """The state after ``actions`` (actor, canonical text, chance lines), step by step.

    Like :func:`decklab.engine.records.replay`, every stored chance outcome is fed
    back to the engine (and none may be missing or left over), so the state is
    exactly the one that was played; each action's public sentence is said on the
    state before it, as it was when played.
    """
    state = cls.from_setup(num_players, options, setup, seed)
    state, entries, _ = replay_from(state, actions)
    return state, entries


def replay_text(
    head: dict[str, Any],
    game: str,
    num_players: int,
    options: dict[str, Any],
    setup: dict[str, Any],
    seed: int | None,
    actions: Sequence[tuple[int, str, Sequence[str]]],
    wanted: Viewer,
) -> str:
    """The replay answer (``head`` and the game after ``actions`` as ``wanted`` saw it
    then: log and view) as JSON text: worked out in a heavy worker (:mod:`.heavy`) from
    plain data, never on the event loop — the encoding too, which for a long game's
    log is tens of milliseconds more."""
    state, entries = rebuild(get_game(game), num_players, options, setup, seed, actions)
    return frames.encode(
        {
            **head,
            "viewer": seat_name(wanted) if wanted is not None else SPECTATOR,
            "log": frames.log_for(state, entries, wanted),
            **frames.game_part(state, wanted, acting=False),
        }
    )


def replay_from(
    state: GameState,
    actions: Sequence[tuple[int, str, Sequence[str]]],
    first: int = 1,
    views: frames.Views | None = None,
) -> tuple[GameState, list[Entry], frames.Views]:
    """The state after stored ``actions`` (numbered from ``first``) are played from
    ``state``, each with its stored chance outcomes, the history entries they add, and
    the views of the states on the way (the last one's, to keep). ``state`` itself is
    not changed; ``views``, if given, are its views (another process's move is
    narrated from the views this process already made for its own connections)."""
    entries: list[Entry] = []
    held = views if views is not None and views.state is state else frames.Views(state)
    for number, (actor, text, chance) in enumerate(actions, first):
        action = held.parse(actor, text)
        sentence = state.describe_action(actor, action)
        after = state.clone()
        after._forced = deque(chance)
        after._strict_chance = True
        try:
            after.apply(actor, action)
        finally:
            after._strict_chance = False
        if after._forced:
            raise RecordError(f"action {number} left chance outcomes unused")
        after._forced = None
        after_views = frames.Views(after)
        entries.extend(
            move_entries(state, after, actor, text, sentence, frames.held_views(held, after_views))
        )
        state, held = after, after_views
    return state, entries, held


def undo_point(state: GameState, seat: int) -> int | None:
    """The history index from which ``seat``'s last action may be taken back, or None.

    Only a game played alone allows undo (there is nobody to learn from a taken-back
    move), as at the terminal; and the end of the game is final.
    """
    if state.num_players != 1 or state.is_terminal():
        return None
    history = state.history
    return next((i for i in range(len(history) - 1, -1, -1) if history[i][0] == seat), None)


def clean_text(text: str, limit: int) -> str:
    """Chat text as stored and shown: printable characters only, trimmed, not empty."""
    kept = "".join(
        ch
        for ch in text
        if ch == " " or unicodedata.category(ch)[0] not in {"C", "Z"} or ch == "\u3000"
    )
    kept = " ".join(kept.split())
    if not kept:
        raise ServiceError("bad_request", "a chat message needs some text")
    if len(kept) > limit:
        raise ServiceError("too_long", f"a chat message is at most {limit} characters")
    return kept


def clean_nickname(name: str) -> str:
    kept = " ".join("".join(ch for ch in name if ch.isprintable()).split())
    if not 1 <= len(kept) <= 32:
        raise ServiceError("bad_request", "a nickname is 1 to 32 printable characters")
    return kept


def _now_iso() -> str:
    import datetime as _dt

    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


class TableService:
    """Every table of this process, and the rules of changing them."""

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
        self.tables: dict[str, Table] = {}
        self.process_id = secrets.token_hex(4)
        """Which server process this is (told in ``welcome``; with ``--processes N``
        a connection's moves reach connections held by the others)."""
        self._listeners: dict[int, Listener] = {}
        self._next_listener = 0
        self._announcing: set[asyncio.Task[None]] = set()
        self._idle_sweep: asyncio.Task[None] | None = None
        self.closed = False
        self._own_heavy = False
        self.heavy_pool = heavy_pool
        """Where replays, records, hints and statistics are worked out (:mod:`.heavy`):
        made at the first such request; with ``heavy_workers`` 0, none (in a thread of
        this process, for embedding)."""
        self.heavy_gate = heavy.HeavyGate(
            self.settings.heavy_per_address, self.settings.heavy_in_flight
        )
        self.replays = heavy.ReplayCache()
        self._expiry_sweep: asyncio.Task[None] | None = None

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
        if self._own_heavy and self.heavy_pool is not None:
            self.heavy_pool.close()
        for table in self.tables.values():
            for task in table.tasks.values():
                task.cancel()
        await self.committer.close()
        await self.coordinator.close()

    async def _load(self, table_id: str) -> Table | None:
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
        for name in (
            "state",
            "seats",
            "version",
            "status",
            "public",
            "clock",
            "setup",
            "seed",
            "secret",
            "outcome",
            "previous_id",
            "next_id",
            "entries",
            "actions",
            "last_action_version",
            "acks",
            "chat",
        ):
            setattr(old, name, getattr(table, name))
        return old

    def _from_rows(self, loaded: LoadedTable) -> Table:
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
        seats = [
            Seat(s.kind, s.nickname, s.token_hash, s.bot_spec, s.zombie, s.clock_ms)
            for s in loaded.seats
        ]
        table = Table(
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
        table.last_action_version = loaded.actions[-1].version if loaded.actions else 0
        table.acks = {
            (a.actor, a.client_id): a.version for a in loaded.actions if a.client_id is not None
        }
        table.chat = [
            ChatMessage(c.id, c.seat, c.nickname, c.text, c.created_at.isoformat())
            for c in loaded.chat
        ]
        return table

    async def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            table = await self._load(table_id)
        if table is None:
            raise not_found(table_id)
        return table

    async def _fresh(self, table: Table) -> Table:
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

    async def _reload(self, table: Table) -> bool:
        """Reload ``table`` in place from the database (lock held) and publish what changed."""
        before_version, before_entries = table.version, len(table.entries)
        if not await self._read_news(table):
            await self._load(table.id)
        if table.version == before_version:
            return False
        added = (
            tuple(table.entries[before_entries:]) if len(table.entries) >= before_entries else ()
        )
        self._publish(table, "update", {}, added)
        return True

    async def _read_news(self, table: Table) -> bool:
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
            seat = Seat(
                seat_row.kind,
                seat_row.nickname,
                seat_row.token_hash,
                seat_row.bot_spec,
                seat_row.zombie,
                seat_row.clock_ms,
            )
            if index < len(table.seats):
                seat.connections = table.seats[index].connections
                seat.left = table.seats[index].left
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
        table.chat.extend(
            ChatMessage(c.id, c.seat, c.nickname, c.text, c.created_at.isoformat())
            for c in news.chat
            if c.id not in known_chat
        )
        table.version, table.status, table.public = row.version, row.status, row.public
        table.clock, table.outcome = row.clock, row.outcome
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
        deal: int | None = None,
        previous_id: str | None = None,
        carry: Sequence[Seat] | None = None,
    ) -> Table:
        try:
            cls = get_game(game)
        except KeyError as exc:
            raise ServiceError("bad_request", str(exc.args[0])) from None
        n = players if players is not None else (len(seats) or cls.info.default_players)
        if seats and len(seats) != n:
            raise ServiceError("bad_request", f"{len(seats)} seats given for {n} players")
        seat_specs = list(seats) or [SeatSpec() for _ in range(n)]
        if deal is not None and not 0 <= deal < 2**62:
            raise ServiceError("bad_request", "a deal number is a whole number from 0 to 2**62-1")
        # A game played alone keeps a public deal number; a table of several deals from a
        # secret nobody sees before the end, and nobody may choose (see .dealing).
        secret: bytes | None = None
        if n == 1:
            seed: int | None = deal if deal is not None else secrets.randbelow(2**31)
            dealt = seed
        elif deal is not None:
            raise ServiceError(
                "bad_request",
                "a deal number is for a game played alone: at a table of several players "
                "whoever chose the deal would know every hand",
            )
        else:
            seed, secret = None, dealing.new_secret()
            dealt = dealing.deal_seed(secret)
        try:
            state = cls.new(n, options or {}, seed=dealt)
        except OptionError as exc:
            raise ServiceError("bad_option", str(exc)) from None
        for spec in seat_specs:
            if spec.bot is not None:
                self._check_bot(spec.bot)
        if clock is not None:
            if not 1 <= clock.base_s <= 24 * 3600 or not 0 <= clock.increment_s <= 3600:
                raise ServiceError(
                    "bad_request", "a clock has 1 s to 24 h, plus 0 to 3600 s a move"
                )
            if clock.on_timeout not in TIMEOUT_ACTIONS:
                raise ServiceError("bad_request", "on_timeout is 'bot' or 'forfeit'")
        clock_json = (
            None
            if clock is None
            else {
                "base_ms": int(clock.base_s * 1000),
                "increment_ms": int(clock.increment_s * 1000),
                "on_timeout": clock.on_timeout,
            }
        )
        table_id = secrets.token_urlsafe(9)
        rows: list[SeatRow] = []
        for index, spec in enumerate(seat_specs):
            kept = carry[index] if carry is not None else None
            if kept is not None and kept.kind == "human":
                kind, nickname, token_hash = "human", kept.nickname, kept.token_hash
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
            clock=clock_json,
            outcome=None,
            previous_id=previous_id,
            next_id=None,
        )
        await asyncio.to_thread(self.store.create, row, rows)
        table = Table(
            table_id,
            cls,
            state,
            [Seat(r.kind, r.nickname, r.token_hash, r.bot_spec, False, r.clock_ms) for r in rows],
            1,
            status,
            public,
            clock_json,
            setup,
            seed,
            previous_id=previous_id,
            secret=secret,
        )
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
            if not is_fair(spec):
                raise ServiceError(
                    "bad_request", f"{spec!r} is not a fair bot: it cannot sit at a table"
                )
            make_agent(spec)
        except AgentSpecError as exc:
            raise ServiceError("bad_request", str(exc)) from None

    # ------------------------------------------------------------ seats
    async def join(self, table_id: str, seat_text: str, nickname: str) -> tuple[int, str]:
        """Take an open seat; returns the seat and its token (shown only this once)."""
        name = clean_nickname(nickname)
        table = await self.table(table_id)
        async with table.lock:
            table = await self._fresh(table)
            seat = self._seat_index(table, seat_text)
            if table.status == "expired":
                raise ServiceError(
                    "expired", "this table expired: nobody took its seats in time", 410
                )
            if table.seats[seat].kind != "open":
                raise ServiceError("seat_taken", f"{seat_name(seat)} is not open", 409)
            token = new_token()
            changes = {"kind": "human", "nickname": name, "token_hash": hash_token(token)}
            starting = all(s.kind != "open" for i, s in enumerate(table.seats) if i != seat)
            status = "playing" if starting else table.status
            await self._commit(
                table,
                seats=[SeatChange(seat, changes)],
                table_values={"status": status},
            )
            current = table.seats[seat]
            current.kind, current.nickname, current.token_hash = (
                "human",
                name,
                changes["token_hash"],
            )
            table.status = status
            self._publish(table, "join", {"seat": seat_name(seat), "nickname": name})
            if starting:
                self._publish_more(table, "start", {})
        if starting:  # read lazily while it waited (see start): this process drives it now
            await self.coordinator.claim(table.id)
        self._schedule(table)
        return seat, token

    def _seat_index(self, table: Table, seat_text: str) -> int:
        try:
            return seat_index(seat_text, table.state.num_players)
        except ValueError:
            raise ServiceError(
                "bad_request", f"no seat {seat_text!r} (seats are p1…p{table.state.num_players})"
            ) from None

    def viewer(self, table: Table, token: str | None) -> Viewer:
        """The seat a token holds, None for a spectator (no token); a bad token is refused."""
        if token is None:
            return None
        seat = table.seat_of(token)
        if seat is None:
            raise ServiceError("forbidden", "this token holds no seat at this table", 403)
        return seat

    async def viewer_of(self, table: Table, token: str | None) -> Viewer:
        """:meth:`viewer`, except that with other processes sharing the tables a token
        this process does not know is first checked against the stored table: another
        process may have seated it a moment ago, before its notice came."""
        try:
            return self.viewer(table, token)
        except ServiceError:
            if not self.coordinator.shared:
                raise
        async with table.lock:
            await self._fresh(table)
        return self.viewer(table, token)

    async def _seat_for(self, table: Table, token: str | None) -> int:
        if not token:
            raise ServiceError("forbidden", "a seat token is needed (spectators may not act)", 403)
        seat = await self.viewer_of(table, token)
        assert seat is not None
        return seat

    async def leave(self, table_id: str, token: str) -> None:
        """A person leaves: after the grace period a bot plays their seat (reclaimable)."""
        table = await self.table(table_id)
        seat = await self._seat_for(table, token)
        table.seats[seat].left = True
        self._presence(table, seat)

    async def connected(self, table: Table, viewer: Viewer) -> None:
        """A connection of ``viewer`` opened: its seat is present again (and reclaimed)."""
        if viewer is None:
            return
        seat = table.seats[viewer]
        seat.connections += 1
        seat.left = False
        task = table.tasks.pop(f"grace{viewer}", None)
        if task is not None:
            task.cancel()
        if seat.zombie and not table.finished:
            async with table.lock:
                table = await self._fresh(table)
                if table.seats[viewer].zombie:
                    await self._commit(table, seats=[SeatChange(viewer, {"zombie": False})])
                    table.seats[viewer].zombie = False
                    table.thinking.discard(viewer)
                    self._restart_clock(table, viewer)
                    self._publish(table, "reclaim", {"seat": seat_name(viewer)})
            self._schedule(table)
        else:
            self._publish_presence(table)

    def disconnected(self, table: Table, viewer: Viewer) -> None:
        if viewer is None:
            return
        table.seats[viewer].connections = max(0, table.seats[viewer].connections - 1)
        self._presence(table, viewer)

    def _presence(self, table: Table, seat: int) -> None:
        self._publish_presence(table)
        info = table.seats[seat]
        away = info.left or info.connections == 0
        if away and info.kind == "human" and not info.zombie and table.status == "playing":
            key = f"grace{seat}"
            if key not in table.tasks:
                table.tasks[key] = asyncio.create_task(self._grace(table.id, seat))

    async def _grace(self, table_id: str, seat: int) -> None:
        try:
            await asyncio.sleep(self.settings.grace_s)
            table = await self.table(table_id)
            table.tasks.pop(f"grace{seat}", None)
            info = table.seats[seat]
            if info.zombie or not (info.left or info.connections == 0) or table.finished:
                return
            await self._zombie(table, seat, "away")
        except asyncio.CancelledError:
            pass

    async def _zombie(self, table: Table, seat: int, why: str) -> None:
        async with table.lock:
            table = await self._fresh(table)
            if table.seats[seat].zombie or table.finished:
                return
            await self._commit(table, seats=[SeatChange(seat, {"zombie": True})])
            table.seats[seat].zombie = True
            table.running_since.pop(seat, None)
            self._publish(table, "zombie", {"seat": seat_name(seat), "why": why})
            log.info("seat played by a bot", extra={"table": table.id, "seat": seat_name(seat)})
        self._schedule(table)

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
            if version != table.version:
                raise ServiceError(
                    "stale",
                    f"this intent was made at version {version}; the table is at {table.version}",
                    409,
                )
            if table.status != "playing":
                raise ServiceError("not_playing", f"the table is {table.status}", 409)
            if table.seats[seat].zombie:
                raise ServiceError(
                    "not_yours_now", "a bot plays this seat: reconnect to take it back", 409
                )
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

    async def _apply(self, table: Table, seat: int, text: str, client_id: str | None) -> int:
        """Validate on a copy, commit, then take the new state and tell everyone. Lock held."""
        state = table.state
        before_views = table.views()
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
        clock_changes, clock_values = self._clock_after_move(table, seat, after)
        values: dict[str, Any] = {}
        solo = None
        if after.is_terminal():
            values = {"status": "finished", "outcome": after.result()}
            solo = self._solo_result(table, after)
        await self._commit(
            table,
            table_values=values,
            seats=clock_changes,
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
        table.state = after
        table.actions += 1
        table.last_action_version = new_version
        for s, ms in clock_values.items():
            table.seats[s].clock_ms = ms
        after_views = frames.Views(after)
        table._views = after_views
        added = move_entries(
            state, after, seat, canonical, sentence, frames.held_views(before_views, after_views)
        )
        table.entries.extend(added)
        if client_id is not None:
            table.acks[(seat, client_id)] = new_version
        if values:
            table.status, table.outcome = "finished", values["outcome"]
            table.running_since.clear()
        self._publish(table, "action", {"seat": seat_name(seat)}, tuple(added))
        trace.mark(table.id, new_version, "queued")
        if values:
            self._publish_more(table, "end", {"result": table.outcome})
        return new_version

    async def _commit(
        self,
        table: Table,
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

    def _solo_result(self, table: Table, after: GameState) -> SoloResultRow | None:
        if after.num_players != 1 or table.seats[0].kind != "human":
            return None
        return SoloResultRow(
            nickname=table.seats[0].nickname or "",
            game=after.info.name,
            deal=table.seed if table.seed is not None and table.seed < 2**31 else None,
            score=float(after.scores()[0]),
            perfect=bool(after.winners()),
            table_id=table.id,
        )

    # ------------------------------------------------------------ clocks
    def _clock_after_move(
        self, table: Table, seat: int, after: GameState
    ) -> tuple[list[SeatChange], dict[int, int]]:
        if table.clock is None or table.seats[seat].played_by_bot:
            return [], {}
        started = table.running_since.pop(seat, None)
        remaining = table.seats[seat].clock_ms or 0
        if started is not None:
            remaining -= int((time.monotonic() - started) * 1000)
        remaining = max(0, remaining) + int(table.clock["increment_ms"])
        return [SeatChange(seat, {"clock_ms": remaining})], {seat: remaining}

    def _restart_clock(self, table: Table, seat: int) -> None:
        if table.clock is not None and seat in table.state.to_act():
            table.running_since[seat] = time.monotonic()

    def _run_clocks(self, table: Table) -> None:
        """Start the clock of every person to act; schedule the earliest timeout."""
        if table.clock is None or table.status != "playing":
            return
        now = time.monotonic()
        to_act = set(table.state.to_act())
        for seat in list(table.running_since):
            if seat not in to_act:
                table.running_since.pop(seat)
        deadline = None
        for seat in to_act:
            info = table.seats[seat]
            if info.played_by_bot or info.clock_ms is None:
                continue
            started = table.running_since.setdefault(seat, now)
            due = started + info.clock_ms / 1000
            deadline = due if deadline is None else min(deadline, due)
        old = table.tasks.pop("clock", None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if deadline is not None:
            table.tasks["clock"] = asyncio.create_task(self._clock_alarm(table.id, deadline))

    async def _clock_alarm(self, table_id: str, deadline: float) -> None:
        try:
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        except asyncio.CancelledError:
            return
        table = await self.table(table_id)
        if table.tasks.get("clock") is asyncio.current_task():
            table.tasks.pop("clock")
        now = time.monotonic()
        late = [
            seat
            for seat, started in table.running_since.items()
            if (table.seats[seat].clock_ms or 0) - (now - started) * 1000 <= 0
        ]
        for seat in late:
            await self._timeout(table, seat)
        self._schedule(table)

    async def _timeout(self, table: Table, seat: int) -> None:
        on_timeout = table.clock["on_timeout"] if table.clock else "bot"
        async with table.lock:
            table = await self._fresh(table)
            if table.finished or seat not in table.running_since:
                return
            table.running_since.pop(seat, None)
            if on_timeout == "forfeit":
                outcome = {
                    **table.state.result(),
                    "forfeit": seat_name(seat),
                    "reason": f"{seat_name(seat)} ran out of time",
                }
                await self._commit(
                    table,
                    table_values={"status": "finished", "outcome": outcome},
                    seats=[SeatChange(seat, {"clock_ms": 0})],
                )
                table.status, table.outcome = "finished", outcome
                table.seats[seat].clock_ms = 0
                self._publish(table, "end", {"result": outcome, "timeout": seat_name(seat)})
                return
            await self._commit(table, seats=[SeatChange(seat, {"zombie": True, "clock_ms": 0})])
            table.seats[seat].zombie = True
            table.seats[seat].clock_ms = 0
            self._publish(table, "zombie", {"seat": seat_name(seat), "why": "time"})

    # ------------------------------------------------------------ bots
    def _schedule(self, table: Table) -> None:
        """Set the table's bots thinking and its clocks running, if this process drives it."""
        if self.closed or table.status != "playing" or not self.coordinator.drives(table.id):
            return
        self._run_clocks(table)
        if self.pool is None:
            return
        for seat in table.state.to_act():
            info = table.seats[seat]
            if info.played_by_bot and seat not in table.thinking:
                table.thinking.add(seat)
                key = f"bot{seat}"
                table.tasks[key] = asyncio.create_task(self._bot_turn(table.id, seat))

    async def _bot_turn(self, table_id: str, seat: int) -> None:
        table = self.tables[table_id]
        try:
            info = table.seats[seat]
            spec = (
                info.bot_spec if info.kind == "bot" and info.bot_spec else self.settings.zombie_spec
            )
            assert self.pool is not None
            state = table.state
            text = await self.pool.choose(spec, state, seat)
            async with table.lock:
                table = await self._fresh(table)
                if (
                    table.status == "playing"
                    and table.seats[seat].played_by_bot
                    and seat in table.state.to_act()
                ):
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
            point = undo_point(table.state, seat)
            if point is None:
                raise ServiceError(
                    "no_undo", "undo is for a game played alone, before its end", 409
                )
            keep = sum(1 for e in table.entries if e.index < point and e.actor != CHANCE)
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
            self._publish(table, "undo", {"seat": seat_name(seat), "actions": keep})
            return table.version

    async def hint(
        self, table_id: str, token: str | None, *, address: str | None = None
    ) -> dict[str, str]:
        """What the expert would play for the seat, and why (a game played alone only).

        Worked out in the heavy pool, not the bots' (a client asking for hint after hint
        must not slow other tables' bots), within the asker's share (:meth:`_heavy`)."""
        table = await self.table(table_id)
        seat = await self._seat_for(table, token)
        if table.state.num_players != 1:
            raise ServiceError("no_hint", "hints are for a game played alone", 409)
        if seat not in table.state.to_act() or table.status != "playing":
            raise ServiceError("no_hint", "it is not this seat's turn", 409)
        pool = self._heavy_workers() or self.pool
        if pool is None:
            raise ServiceError("no_hint", "this server has no bot workers", 503)
        sample = pool.sample(table.state, seat)
        got = await self._heavy(address, bots.hint, self.settings.hint_spec, sample, seat)
        return {"action": got.action, "reason": got.reason, "version": str(table.version)}

    # ------------------------------------------------------------ chat
    async def chat(self, table_id: str, token: str | None, text: str) -> ChatMessage:
        table = await self.table(table_id)
        seat = await self._seat_for(table, token)
        body = clean_text(text, self.settings.chat_max_chars)
        now = time.monotonic()
        times = table.chat_times.setdefault(seat, deque())
        while times and now - times[0] > self.settings.chat_window_s:
            times.popleft()
        if len(times) >= self.settings.chat_burst:
            raise ServiceError("rate_limited", "too many chat messages: wait a few seconds", 429)
        times.append(now)
        nickname = table.seats[seat].nickname or seat_name(seat)
        row = await asyncio.to_thread(
            self.store.add_chat, ChatRow(table_id=table.id, seat=seat, nickname=nickname, text=body)
        )
        message = ChatMessage(row.id, seat, nickname, body, _now_iso())
        table.chat.append(message)
        self._send_all(table, lambda _viewer: message.to_json())
        if self.coordinator.shared:
            await self.coordinator.announce(table.id, "chat", message.to_json())
        return message

    def remote_chat(self, table_id: str, message: dict[str, Any]) -> None:
        table = self.tables.get(table_id)
        if table is not None and all(m.id != message.get("id") for m in table.chat):
            table.chat.append(
                ChatMessage(
                    message["id"],
                    int(message["from"][1:]) - 1,
                    message["nickname"],
                    message["text"],
                    message["at"],
                )
            )
            self._send_all(table, lambda _viewer: message)

    # ------------------------------------------------------------ play again
    async def play_again(self, table_id: str, token: str | None) -> Table:
        """A new table of the same game with the same seats (people keep their tokens)."""
        table = await self.table(table_id)
        await self._seat_for(table, token)
        if not table.finished:
            raise ServiceError("not_finished", "play again once the game is over", 409)
        if table.next_id is not None:
            return await self.table(table.next_id)
        specs = [SeatSpec(s.bot_spec if s.kind == "bot" else None) for s in table.seats]
        clock = None
        if table.clock is not None:
            clock = ClockSpec(
                table.clock["base_ms"] / 1000,
                table.clock["increment_ms"] / 1000,
                table.clock["on_timeout"],
            )
        new = await self.create_table(
            table.cls.info.name,
            table.state.num_players,
            specs,
            options=dict(table.state.options),
            public=table.public,
            clock=clock,
            previous_id=table.id,
            carry=table.seats,
        )
        table.next_id = new.id
        await asyncio.to_thread(self.store.link_next, table.id, new.id)
        self._send_all(table, lambda _v: {"type": "again", "table": table.id, "next": new.id})
        return new

    # ------------------------------------------------------------ following
    def subscribe(
        self,
        table: Table,
        viewer: Viewer,
        last_version: int | None = None,
        *,
        encoded: bool = False,
    ) -> tuple[int, Listener]:
        """Follow ``table`` as ``viewer``; the first frames (missed events or a sync) are
        queued. ``encoded``: the table's frames come as text (:class:`Listener`)."""
        listener = Listener(viewer, asyncio.Queue(maxsize=1024), encoded=encoded)
        key = self._next_listener
        self._next_listener += 1
        self._listeners[key] = listener
        table.listeners.add(key)
        for frame in self.catch_up(table, viewer, last_version):
            listener.queue.put_nowait(_encoded(frame) if encoded else frame)
        return key, listener

    def unsubscribe(self, table: Table, key: int) -> None:
        table.listeners.discard(key)
        table.touched = time.monotonic()
        self._listeners.pop(key, None)

    def catch_up(
        self, table: Table, viewer: Viewer, last_version: int | None
    ) -> list[dict[str, Any]]:
        """The events after ``last_version`` if still kept (the newest with the state),
        else one full ``sync`` frame."""
        if last_version is not None and last_version == table.version:
            return [self.sync_frame(table, viewer, kind="current")]
        kept = [e for e in table.events if last_version is not None and e.version > last_version]
        if (
            last_version is not None
            and 0 < last_version < table.version
            and kept
            and kept[0].version == last_version + 1
        ):
            out = [self.event_frame(table, e, viewer, with_state=False) for e in kept]
            out[-1] = self.event_frame(table, kept[-1], viewer, with_state=True)
            return out
        return [self.sync_frame(table, viewer)]

    def table_part(self, table: Table, viewer: Viewer) -> dict[str, Any]:
        """Everything public about the table plus the game as ``viewer`` sees it."""
        acting = viewer is None or not table.seats[viewer].played_by_bot
        part = frames.game_part(
            table.state, viewer, acting=acting and table.status == "playing", views=table.views()
        )
        now = time.monotonic()
        clocks = None
        if table.clock is not None:
            clocks = {
                "increment_ms": table.clock["increment_ms"],
                "remaining_ms": {
                    seat_name(i): None
                    if s.clock_ms is None
                    else max(
                        0,
                        s.clock_ms
                        - (
                            int((now - table.running_since[i]) * 1000)
                            if i in table.running_since
                            else 0
                        ),
                    )
                    for i, s in enumerate(table.seats)
                },
                "running": [seat_name(i) for i in sorted(table.running_since)],
            }
        return {
            "table": table.id,
            "game": table.cls.info.name,
            "version": table.version,
            "status": table.status,
            "seat": seat_name(viewer) if viewer is not None else None,
            "seats": [s.public(i) for i, s in enumerate(table.seats)],
            "clock": clocks,
            "outcome": table.outcome,
            "next": table.next_id,
            "can_undo": viewer is not None
            and table.status == "playing"
            and undo_point(table.state, viewer) is not None,
            **part,
        }

    def sync_frame(self, table: Table, viewer: Viewer, kind: str = "sync") -> dict[str, Any]:
        return {
            "type": "sync",
            "kind": kind,
            "table": table.id,
            "version": table.version,
            "log": frames.log_for(table.state, table.entries, viewer),
            "chat": [m.to_json() for m in table.chat[-100:]],
            "state": self.table_part(table, viewer),
        }

    def event_frame(
        self, table: Table, event: Event, viewer: Viewer, *, with_state: bool = True
    ) -> dict[str, Any]:
        return {
            "type": "event",
            "table": table.id,
            "version": event.version,
            "kind": event.kind,
            "detail": event.detail,
            "log": frames.log_for(table.state, event.entries, viewer),
            "state": self.table_part(table, viewer) if with_state else None,
        }

    def _publish(
        self, table: Table, kind: str, detail: dict[str, Any], entries: tuple[Entry, ...] = ()
    ) -> None:
        event = Event(table.version, kind, detail, entries)
        table.touched = time.monotonic()
        table.events.append(event)
        while len(table.events) > self.settings.events_kept:
            table.events.popleft()
        self._send_all(table, lambda viewer: self.event_frame(table, event, viewer))
        if self.coordinator.shared:
            task = asyncio.create_task(
                self.coordinator.announce(table.id, "version", {"version": table.version})
            )
            self._announcing.add(task)
            task.add_done_callback(self._announcing.discard)

    def _publish_more(self, table: Table, kind: str, detail: dict[str, Any]) -> None:
        """A second notice about the same version (the game started, the game ended)."""
        self._send_all(
            table,
            lambda _v: {
                "type": "notice",
                "table": table.id,
                "version": table.version,
                "kind": kind,
                "detail": detail,
            },
        )

    def _publish_presence(self, table: Table) -> None:
        seats = [s.public(i) for i, s in enumerate(table.seats)]
        self._send_all(table, lambda _v: {"type": "presence", "table": table.id, "seats": seats})

    def _send_all(self, table: Table, build: Callable[[Viewer], dict[str, Any]]) -> None:
        """Queue ``build(viewer)`` to every listener: built once per viewer, and written
        as text once per viewer for the listeners that take text."""
        made: dict[Viewer, dict[str, Any]] = {}
        texts: dict[Viewer, Encoded] = {}
        for key in list(table.listeners):
            listener = self._listeners.get(key)
            if listener is None:
                continue
            viewer = listener.viewer
            frame = made.get(viewer)
            if frame is None:
                frame = made[viewer] = build(viewer)
            item: dict[str, Any] | Encoded = frame
            if listener.encoded:
                item = texts.get(viewer) or texts.setdefault(viewer, _encoded(frame))
            try:
                listener.queue.put_nowait(item)
            except asyncio.QueueFull:
                listener.overflowed = True

    # ------------------------------------------------------------ records, replay
    @contextlib.contextmanager
    def _heavy_share(self, address: str | None) -> Iterator[None]:
        """Hold one of the asker's heavy slots (:class:`.heavy.HeavyGate`) meanwhile:
        refused at once (429, or 503 when everyone's slots are taken) rather than
        queued behind work nobody may wait for."""
        key = address or "local"
        refused = self.heavy_gate.enter(key)
        if refused == "address":
            raise ServiceError(
                "rate_limited",
                f"at most {self.heavy_gate.per_address} replays, records, hints or statistics "
                "at a time from one address: wait for the others to finish",
                429,
                retry_after=1,
            )
        if refused is not None:
            raise ServiceError(
                "unavailable", "the server is busy with replays: try again shortly", 503, 2
            )
        try:
            yield
        finally:
            self.heavy_gate.leave(key)

    async def _work(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` worked out in the heavy pool (:mod:`.heavy`), not on the loop."""
        workers = self._heavy_workers()
        if workers is None:
            return await asyncio.to_thread(fn, *args)
        return await workers.run(fn, *args)

    async def _heavy(self, address: str | None, fn: Callable[..., T], *args: Any) -> T:
        """:meth:`_work` within the asker's share (:meth:`_heavy_share`)."""
        with self._heavy_share(address):
            return await self._work(fn, *args)

    def _heavy_workers(self) -> BotPool | None:
        if self.heavy_pool is None and self.settings.heavy_workers > 0 and not self.closed:
            self.heavy_pool = BotPool(self.settings.heavy_workers, nice=HEAVY_NICE)
            self._own_heavy = True
        return self.heavy_pool

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
        players = {
            seat_name(i): s.nickname or s.bot_spec or "open" for i, s in enumerate(table.seats)
        }
        # The state is handed over as it is: installed states are never changed in place.
        return await self._heavy(
            address, heavy.record_of, table.state, players, ALL if table.finished else viewer
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
            None if as_seat in (None, "", SPECTATOR) else self._seat_index(table, as_seat or "")
        )
        if not table.finished and wanted is not None and wanted != viewer:
            raise ServiceError(
                "forbidden", "during play only your own seat's side may be replayed", 403
            )
        if not 0 <= step <= table.actions:
            raise ServiceError("bad_request", f"step is 0 to {table.actions}")
        key = (table.id, table.version, step, wanted)
        text = self.replays.get(key) if table.finished else None
        if text is None:
            with self._heavy_share(address):  # the reading of the actions too
                lines = await asyncio.to_thread(self.store.action_lines, table.id, step)
                text = await self._work(
                    replay_text,
                    {"table": table.id, "step": step, "steps": table.actions},
                    table.cls.info.name,
                    table.state.num_players,
                    dict(table.state.options),
                    table.setup,
                    table.seed,
                    lines,
                    wanted,
                )
            if table.finished:
                self.replays.put(key, text)
        return text

    # ------------------------------------------------------------ listings
    def summary(self, table: Table) -> dict[str, Any]:
        return {
            "id": table.id,
            "game": table.cls.info.name,
            "players": table.state.num_players,
            "options": dict(table.state.options),
            "status": table.status,
            "public": table.public,
            "version": table.version,
            "actions": table.actions,
            "clock": table.clock,
            "deal": table.seed if table.state.num_players == 1 else None,
            "deal_commitment": dealing.commitment(table.secret) if table.secret else None,
            "deal_secret": table.secret.hex() if table.secret and table.finished else None,
            "seats": [s.public(i) for i, s in enumerate(table.seats)],
            "outcome": table.outcome,
            "previous": table.previous_id,
            "next": table.next_id,
        }

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
                    "open_seats": [seat_name(s.seat) for s in seats if s.kind == "open"],
                    "seats": [
                        {
                            "seat": seat_name(s.seat),
                            "kind": s.kind,
                            "nickname": s.nickname,
                            "bot": s.bot_spec,
                        }
                        for s in seats
                    ],
                }
            )
        return out

    async def stats(
        self, nickname: str, game: str | None = None, *, address: str | None = None
    ) -> dict[str, Any]:
        """A nickname's solo statistics per game: games, perfect, average, best, streaks, deals
        (worked out in the heavy pool: a keen player's thousands of games are many rows)."""
        with self._heavy_share(address):
            rows = await asyncio.to_thread(self.store.solo_results, nickname, game)
            plain = [(r.game, r.deal, r.score, r.perfect) for r in rows]
            return await self._work(heavy.solo_stats, plain, game)


def games_catalogue() -> list[dict[str, Any]]:
    """Every game with its players, dynamics and options spec, for the lobby's forms."""
    out = []
    for name in game_names():
        info = get_game(name).info
        out.append(
            {
                "name": info.name,
                "title": info.title,
                "version": info.version,
                "summary": info.summary,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "default_players": info.default_players,
                "solo": info.max_players == 1,
                "simultaneous": info.simultaneous,
                "hidden_information": info.hidden_information,
                "lower_is_better": info.lower_is_better,
                "score_unit": info.score_unit,
                "options": [
                    {
                        "name": o.name,
                        "help": o.help,
                        "kind": o.kind if isinstance(o.kind, str) else o.kind.__name__,
                        "default": None if callable(o.default) else o.default,
                        "default_text": o.describe_default(),
                        "minimum": o.minimum,
                        "maximum": o.maximum,
                        "choices": list(o.choices) if o.choices is not None else None,
                        "nullable": o.nullable,
                    }
                    for o in info.options
                ],
            }
        )
    return out
