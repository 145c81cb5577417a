"""One table's rules of play: its seats, clocks, undo point, chat and public part.

Plain synchronous code: no event loop, no database, no timer. Every rule that needs
the time is handed ``now`` (a monotonic second), so a test can drive it with made-up
times. The service (:mod:`.service`) keeps tables in memory, commits their changes
and runs their timers and bots; the hub (:mod:`.hub`) sends what they show. Each rule
here either answers a question (may this seat join? when does the next clock run
out?) or changes the table in memory after the service has committed the change.
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from decklab.engine.state import CHANCE, GameState, Viewer, seat_index, seat_name
from decklab.server import clock, dealing, frames, pace
from decklab.server.errors import ServiceError
from decklab.server.logline import Entry
from decklab.server.standing import standing_after
from decklab.server.tokens import matches

TIMEOUT_ACTIONS = ("bot", "forfeit")

RECLAIM_CLOCK_MS = 30_000
"""What a person taking back a seat lost on time may think (at least): with no time
left, their clock would run out again at once and hand the seat straight back."""


@dataclass(frozen=True)
class SeatAccount:
    """A seat given to a bot account when the table is made: its id, username, and its
    seat token's hash and salt (the token is derived from the account's key)."""

    account_id: int
    username: str
    token_hash: str
    token_salt: str


@dataclass
class SeatSpec:
    """A seat as the creator asks for it: open for a person, a bot spec (played by the
    server), or a bot account (played by its own program through the bot API)."""

    bot: str | None = None
    account: SeatAccount | None = None


@dataclass
class ClockSpec:
    """Fischer clock: ``base_s`` for the game plus ``increment_s`` per move."""

    base_s: float
    increment_s: float = 0.0
    on_timeout: str = "bot"

    def to_json(self) -> dict[str, Any]:
        """The clock as a table stores it (milliseconds), or a refusal if out of range."""
        if not 1 <= self.base_s <= 24 * 3600 or not 0 <= self.increment_s <= 3600:
            raise ServiceError("bad_request", "a clock has 1 s to 24 h, plus 0 to 3600 s a move")
        if self.on_timeout not in TIMEOUT_ACTIONS:
            raise ServiceError("bad_request", "on_timeout is 'bot' or 'forfeit'")
        return {
            "base_ms": int(self.base_s * 1000),
            "increment_ms": int(self.increment_s * 1000),
            "on_timeout": self.on_timeout,
        }

    @classmethod
    def from_json(cls, stored: dict[str, Any]) -> ClockSpec:
        return cls(stored["base_ms"] / 1000, stored["increment_ms"] / 1000, stored["on_timeout"])


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
    account_id: int | None = None
    """The account the seat belongs to (None: a guest's); kept for play again and results."""
    token_salt: str | None = None
    seen: float | None = None
    """The monotonic second its person last showed a sign of life without a connection
    open (a request made with its token, a connection closing): the grace period of a
    seat away runs from it."""
    bot_account: bool = False
    """Held by a bot account (a program playing through the bot API): shown as a bot,
    and otherwise a person's seat (a token, presence, a grace period, a clock)."""
    arrived: bool = False
    """Kept only at a rated table: its account has used the seat's token (opened a
    connection with it, or made a request with it). A rated table whose seat never
    arrived is aborted, not ended, by that seat's absence (:mod:`.ratings.rules`)."""

    def public(self, index: int) -> dict[str, Any]:
        return {
            "seat": seat_name(index),
            "kind": self.kind,
            "nickname": self.nickname,
            "bot": self.bot_spec if self.kind == "bot" else None,
            "bot_account": self.bot_account,
            "zombie": self.zombie,
            "present": self.kind == "bot" or (self.connections > 0 and not self.left),
        }

    @property
    def played_by_bot(self) -> bool:
        return self.kind == "bot" or self.zombie

    @property
    def away(self) -> bool:
        """Its person left, or has no connection open."""
        return self.left or self.connections == 0


@dataclass(frozen=True)
class Event:
    """A change of the table, kept for reconnects: its version, kind, public detail,
    and the history entries it added (log lines are redacted per viewer when sent)."""

    version: int
    kind: str
    detail: dict[str, Any]
    entries: tuple[Entry, ...] = ()


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

    @classmethod
    def from_json(cls, message: dict[str, Any]) -> ChatMessage:
        return cls(
            message["id"],
            int(message["from"][1:]) - 1,
            message["nickname"],
            message["text"],
            message["at"],
        )


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


@dataclass
class Table:
    """One table in memory: the game, its seats and clocks, its kept events and chat,
    and the rules that read and change them."""

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
    thinking: set[int] = field(default_factory=set)
    running_since: dict[int, float] = field(default_factory=dict)
    touched: float = field(default_factory=time.monotonic)
    """When it last changed or was last followed (for :meth:`TableService.drop_idle`)."""
    secret: bytes | None = None
    """A table of several players' deal secret (:mod:`.dealing`): shown to nobody before
    the end, and the source of all its chance."""
    turn: dict[str, Any] | None = None
    """A turn-based table's time control (:mod:`.pace`); None at a live table."""
    deadlines: pace.Deadlines | None = None
    rated: bool = False
    """A rated table: only accounts may take its seats, and its end updates ratings."""
    muted: dict[int, set[int]] = field(default_factory=dict)
    """Moderation: each account's muted accounts (the service's one shared map)."""
    ticks: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)
    """The monotonic seconds its clocks and grace periods read (the service's one
    source: a test injects its own and moves it, rather than waiting for real time)."""
    standing: dict[int, int] = field(default_factory=dict)
    """Each seat to act: the earliest version its intent stands at (:mod:`.standing`),
    as of version ``standing_at``; unknown at any other version."""
    standing_at: int = -1
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

    # ------------------------------------------------------------ seats
    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds here (checked in constant time against every seat)."""
        found = None
        for index, seat in enumerate(self.seats):
            if matches(token, seat.token_hash):
                found = index
        return found

    def viewer(self, token: str | None) -> Viewer:
        """The seat a token holds, None for a spectator (no token); a bad token is refused."""
        if token is None:
            return None
        seat = self.seat_of(token)
        if seat is None:
            raise ServiceError("forbidden", "this token holds no seat at this table", 403)
        return seat

    def seat_index(self, seat_text: str) -> int:
        try:
            return seat_index(seat_text, self.state.num_players)
        except ValueError:
            raise ServiceError(
                "bad_request", f"no seat {seat_text!r} (seats are p1…p{self.state.num_players})"
            ) from None

    def may_join(self, seat: int) -> bool:
        """Refuse a join of ``seat`` unless it is open at a table not expired; True when
        it is the last open seat (its taking starts the game)."""
        if self.status == "expired":
            raise ServiceError("expired", "this table expired: nobody took its seats in time", 410)
        if self.seats[seat].kind != "open":
            raise ServiceError("seat_taken", f"{seat_name(seat)} is not open", 409)
        return all(s.kind != "open" for i, s in enumerate(self.seats) if i != seat)

    def seated(self, seat: int, nickname: str, token_hash: str, status: str) -> None:
        """A person took ``seat`` (committed): the table is ``status`` now."""
        current = self.seats[seat]
        current.kind, current.nickname, current.token_hash = "human", nickname, token_hash
        self.status = status

    def may_act(self, seat: int, version: int) -> None:
        """Refuse an intent of ``seat`` made at ``version`` unless it may act now: at the
        table's version, or at an earlier one since which the others only chose face
        down (:mod:`.standing`)."""
        if version != self.version and not self._stands(seat, version):
            raise ServiceError(
                "stale",
                f"this intent was made at version {version}; the table is at {self.version}",
                409,
            )
        if self.status != "playing":
            raise ServiceError("not_playing", f"the table is {self.status}", 409)
        if self.seats[seat].zombie:
            raise ServiceError(
                "not_yours_now", "a bot plays this seat: take it back to play it", 409
            )

    def _stands(self, seat: int, version: int) -> bool:
        if self.standing_at != self.version:
            return False
        return self.standing.get(seat, self.version) <= version < self.version

    def connect(self, viewer: int) -> bool:
        """A connection of ``viewer``'s seat opened: present again. True when the seat
        is to be reclaimed from the bot that plays it."""
        seat = self.seats[viewer]
        seat.connections += 1
        seat.left = False
        return seat.zombie and not self.finished

    def disconnect(self, viewer: int, now: float) -> None:
        seat = self.seats[viewer]
        seat.connections = max(0, seat.connections - 1)
        seat.seen = now

    def may_reclaim(self, seat: int) -> bool:
        """Whether ``seat``'s person may take it back from the bot that plays it now."""
        return self.seats[seat].zombie and self.status == "playing"

    @property
    def alone(self) -> bool:
        """A game played alone: never handed to a bot (nobody waits for its person, and
        a bot's finish must not count as theirs)."""
        return self.state.num_players == 1

    def needs_grace(self, seat: int) -> bool:
        """Whether a person's seat is away during play (it went away, or never came):
        a bot takes it over unless they come back within the grace period."""
        info = self.seats[seat]
        return (
            info.away
            and info.kind == "human"
            and not info.zombie
            and self.status == "playing"
            and not self.alone
            and self.turn is None  # a turn-based seat waits for its person
        )

    def away_seats(self) -> list[int]:
        """The seats :meth:`needs_grace` holds for now."""
        return [seat for seat in range(len(self.seats)) if self.needs_grace(seat)]

    def still_away(self, seat: int) -> bool:
        """After the grace period: whether the seat is still away (a bot takes it over)."""
        info = self.seats[seat]
        return not (
            info.zombie or not info.away or self.finished or self.alone or self.turn is not None
        )

    def seen_now(self, seat: int, now: float) -> None:
        """Its person showed a sign of life at ``now`` (a request with its token)."""
        self.seats[seat].seen = now

    def grace_left(self, seat: int, now: float, grace_s: float) -> float | None:
        """Seconds until the bot takes ``seat`` over at ``now``: None when it is not away
        any more (back, already a bot's, game over); 0 or less when its time is up. The
        period runs from its person's last sign of life (from ``now`` if none yet)."""
        if not self.still_away(seat):
            return None
        info = self.seats[seat]
        if info.seen is None:
            info.seen = now
        return grace_s - (now - info.seen)

    def reclaim_clock_ms(self, seat: int) -> int | None:
        """The clock ``seat`` gets back with its seat when its time ran out (a bot took it
        over on time): the increment, or :data:`RECLAIM_CLOCK_MS` if that is less (no more
        than the game's base). None when nothing changes (time left, or no clock)."""
        info = self.seats[seat]
        if self.clock is None or info.clock_ms is None or info.clock_ms > 0:
            return None
        fresh = min(RECLAIM_CLOCK_MS, int(self.clock["base_ms"]))
        return max(int(self.clock["increment_ms"]), fresh)

    def reclaimed(self, seat: int, now: float, clock_ms: int | None = None) -> None:
        """Its person took the seat back from the bot (committed): they are here, and
        their clock runs again (from ``clock_ms`` if it is given back)."""
        self.seats[seat].zombie = False
        self.seats[seat].left = False
        if clock_ms is not None:
            self.seats[seat].clock_ms = clock_ms
        self.thinking.discard(seat)
        self.restart_clock(seat, now)

    def zombied(self, seat: int) -> None:
        """A bot plays the seat now (committed); its person's clock stops."""
        self.seats[seat].zombie = True
        self.running_since.pop(seat, None)

    def bot_spec_of(self, seat: int, zombie_spec: str) -> str:
        """The bot that plays ``seat``: its own, or ``zombie_spec`` for a person's."""
        info = self.seats[seat]
        return info.bot_spec if info.kind == "bot" and info.bot_spec else zombie_spec

    def bot_may_move(self, seat: int) -> bool:
        return (
            self.status == "playing"
            and self.seats[seat].played_by_bot
            and seat in self.state.to_act()
        )

    def bots_to_act(self) -> list[int]:
        """The seats a bot plays that are to act and have no bot thinking yet."""
        return [
            seat
            for seat in self.state.to_act()
            if self.seats[seat].played_by_bot and seat not in self.thinking
        ]

    # ------------------------------------------------------------ clocks
    @property
    def clocked(self) -> bool:
        """Whether clocks run here now: a clock was asked for and the game is on."""
        return self.clock is not None and self.status == "playing"

    def clock_after_move(self, seat: int, now: float) -> dict[int, int]:
        """The clock ``seat`` will have after moving at ``now`` (its clock stops):
        empty when no clock or a bot plays it."""
        if self.clock is None or self.seats[seat].played_by_bot:
            return {}
        started = self.running_since.pop(seat, None)
        remaining = clock.after_move(
            self.seats[seat].clock_ms, started, now, int(self.clock["increment_ms"])
        )
        return {seat: remaining}

    def restart_clock(self, seat: int, now: float) -> None:
        if self.clock is not None and seat in self.state.to_act():
            self.running_since[seat] = now

    def run_clocks(self, now: float) -> float | None:
        """Stop the clocks of seats not to act, start those of every person to act (from
        ``now`` unless already running); the earliest moment one runs out, or None."""
        to_act = set(self.state.to_act())
        for seat in list(self.running_since):
            if seat not in to_act:
                self.running_since.pop(seat)
        deadline = None
        for seat in to_act:
            info = self.seats[seat]
            if info.played_by_bot or info.clock_ms is None:
                continue
            started = self.running_since.setdefault(seat, now)
            due = clock.due(started, info.clock_ms)
            deadline = due if deadline is None else min(deadline, due)
        return deadline

    def late_seats(self, now: float) -> list[int]:
        """The seats whose running clock has run out by ``now``."""
        return [
            seat
            for seat, started in self.running_since.items()
            if clock.out_of_time(self.seats[seat].clock_ms, started, now)
        ]

    @property
    def on_timeout(self) -> str:
        """What a clock running out does here: the table's choice, except that a game
        played alone is never handed to a bot (it forfeits: left unfinished)."""
        if self.alone:
            return "forfeit"
        return self.clock["on_timeout"] if self.clock else "bot"

    def forfeit_outcome(self, seat: int, why: str = "ran out of time") -> dict[str, Any]:
        """The table's result when ``seat`` forfeits: the game's
        :meth:`~decklab.engine.state.GameState.forfeit_result` (the seat last, terminal),
        with the reason said."""
        result = self.state.forfeit_result(seat)
        winners = result.get("winners") or []
        said = f"{seat_name(seat)} {why} and forfeits."
        if winners:
            said += f" Won by {', '.join(winners)}."
        return {**result, "reason": said}

    def forfeited(self, seat: int, outcome: dict[str, Any]) -> None:
        """``seat`` forfeited (committed): the game is over with ``outcome``."""
        self.status, self.outcome = "finished", outcome
        if self.clock is not None:
            self.seats[seat].clock_ms = 0
        self.running_since.clear()

    def clocks_part(self, now: float) -> dict[str, Any] | None:
        """Every seat's clock as shown at ``now``, and which run."""
        if self.clock is None:
            return None
        return {
            "increment_ms": self.clock["increment_ms"],
            "remaining_ms": {
                seat_name(i): None
                if s.clock_ms is None
                else clock.remaining_ms(s.clock_ms, self.running_since.get(i), now)
                for i, s in enumerate(self.seats)
            },
            "running": [seat_name(i) for i in sorted(self.running_since)],
        }

    # ------------------------------------------------------------ turn-based deadlines
    def set_turn(self, turn: dict[str, Any] | None) -> None:
        """Make the table turn-based (``turn``, as :class:`.pace.TurnSpec` stores it) or live."""
        self.turn = turn
        if turn is None:
            self.deadlines = None
        elif self.deadlines is None:
            self.deadlines = pace.Deadlines(int(turn["move_ms"]))

    def run_deadlines(self, now: float) -> float | None:
        """Give each person to act a deadline (wall-clock ``now`` plus the time a move has)
        unless they have one; the earliest, or None (a live table, or nobody waited for)."""
        if self.deadlines is None:
            return None
        if self.status != "playing":
            self.deadlines.due.clear()
            return None
        to_act = self.state.to_act()
        waiting = {s for s in to_act if self.seats[s].kind == "human" and not self.seats[s].zombie}
        return self.deadlines.run(to_act, waiting, now)

    def waited_for(self) -> set[int]:
        """The seats of a turn-based table that have a deadline running (waited for)."""
        return set() if self.deadlines is None else set(self.deadlines.due)

    def late_for_deadline(self, now: float) -> list[int]:
        """The seats to act whose deadline has passed by wall-clock ``now``."""
        if self.deadlines is None or self.status != "playing":
            return []
        return [s for s in self.deadlines.late(now) if s in self.state.to_act()]

    @property
    def on_deadline(self) -> str:
        return str(self.turn["on_deadline"]) if self.turn else "bot"

    def turn_part(self) -> dict[str, Any] | None:
        """A turn-based table's time control and each seat's deadline, as shown."""
        if self.turn is None or self.deadlines is None:
            return None
        return {
            "move_ms": self.turn["move_ms"],
            "on_deadline": self.turn["on_deadline"],
            "deadlines": self.deadlines.public() if self.status == "playing" else {},
        }

    # ------------------------------------------------------------ moves, undo
    def moved(
        self,
        after: GameState,
        views: frames.Views,
        added: list[Entry],
        seat: int,
        client_id: str | None,
        version: int,
        clocks: dict[int, int],
        outcome: dict[str, Any] | None,
    ) -> None:
        """Take the state after ``seat``'s move (committed at ``version``)."""
        known = self.standing if self.standing_at == version - 1 else {}
        self.standing = standing_after(self.state, after, added, seat, known, version)
        self.standing_at = version
        self.state = after
        self.actions += 1
        if self.deadlines is not None:
            self.deadlines.moved(seat)
        self.last_action_version = version
        for s, ms in clocks.items():
            self.seats[s].clock_ms = ms
        self._views = views
        self.entries.extend(added)
        if client_id is not None:
            self.acks[(seat, client_id)] = version
        if outcome is not None:
            self.status, self.outcome = "finished", outcome
            self.running_since.clear()

    def undo_keep(self, seat: int) -> int:
        """How many actions stay when ``seat``'s last one is taken back (with chance
        and the other seats' since), or a refusal."""
        point = undo_point(self.state, seat)
        if point is None:
            raise ServiceError("no_undo", "undo is for a game played alone, before its end", 409)
        return sum(1 for e in self.entries if e.index < point and e.actor != CHANCE)

    def can_undo(self, viewer: Viewer) -> bool:
        return (
            viewer is not None
            and self.status == "playing"
            and undo_point(self.state, viewer) is not None
        )

    # ------------------------------------------------------------ chat
    def hides(self, viewer: Viewer, seat: int) -> bool:
        """Whether ``viewer``'s account muted the account that holds ``seat`` (its chat
        lines are then not sent to that viewer; guests mute in their browser)."""
        if viewer is None or not 0 <= seat < len(self.seats):
            return False
        me, them = self.seats[viewer].account_id, self.seats[seat].account_id
        return me is not None and them is not None and them in self.muted.get(me, ())

    def chat_for(self, viewer: Viewer, last: int = 100) -> list[dict[str, Any]]:
        """The newest ``last`` chat lines ``viewer`` is shown."""
        return [m.to_json() for m in self.chat[-last:] if not self.hides(viewer, m.seat)]

    def removed(self, seat: int) -> None:
        """The creator removed ``seat``'s person before the start (committed): open again."""
        # connections stay counted: the removed person's still open ones close later
        self.seats[seat] = Seat("open", connections=self.seats[seat].connections)

    def note_chat(self, seat: int, now: float, window_s: float, burst: int) -> None:
        """Count a chat line of ``seat`` at ``now``, refused past ``burst`` lines within
        the last ``window_s`` seconds."""
        times = self.chat_times.setdefault(seat, deque())
        while times and now - times[0] > window_s:
            times.popleft()
        if len(times) >= burst:
            raise ServiceError("rate_limited", "too many chat messages: wait a few seconds", 429)
        times.append(now)

    def add_remote_chat(self, message: dict[str, Any]) -> bool:
        """Another process's chat line, unless already held; True if it was new."""
        if any(m.id == message.get("id") for m in self.chat):
            return False
        self.chat.append(ChatMessage.from_json(message))
        return True

    # ------------------------------------------------------------ public part
    def public_seats(self) -> list[dict[str, Any]]:
        return [s.public(i) for i, s in enumerate(self.seats)]

    def players(self) -> dict[str, str]:
        """Who sits where, by name, for a record's head."""
        return {seat_name(i): s.nickname or s.bot_spec or "open" for i, s in enumerate(self.seats)}

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the table, without the game itself: a solo deal's
        number, but the secret of a table of several only once it is over."""
        return {
            "id": self.id,
            "game": self.cls.info.name,
            "players": self.state.num_players,
            "options": dict(self.state.options),
            "status": self.status,
            "public": self.public,
            "version": self.version,
            "actions": self.actions,
            "clock": self.clock,
            "turn": self.turn_part(),
            "deal": self.seed if self.state.num_players == 1 else None,
            "deal_commitment": dealing.commitment(self.secret) if self.secret else None,
            "deal_secret": self.secret.hex() if self.secret and self.finished else None,
            "seats": self.public_seats(),
            "outcome": self.outcome,
            "previous": self.previous_id,
            "next": self.next_id,
            "rated": self.rated,
        }
