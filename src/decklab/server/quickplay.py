"""Quick play: "play this game now, with 5 to 7 players" seats a person at a table that
is filling, and a wait they choose later fills its empty seats with bots.

The rule, which docs/server.md states too: a quick-play table is made with
``max_players`` seats, all open. It starts as soon as people take them all (an ordinary
join of the last seat). At its fill deadline, if at least one person sits there, every
seat still open goes to a bot of the chosen level and the game starts with
``max_players`` seats; with nobody seated the table is discarded. So a quick-play table
never waits past its deadline, and a game never has fewer people than came.
``min_players`` is part of the terms a newcomer is matched on (the same range, level,
rating and game), so that people who asked for the same thing meet; it does not shrink
a table (a deal is made for its number of seats, before anyone sits down).

The terms and the deadline are stored (:class:`~.store.models.QuickPlayRow`), and a
start sets the alarms of the tables still waiting, so a restart keeps the promise. The
deadlines are on :attr:`.TableService.wall`, the clock tests inject.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from decklab.bots.levels import LEVELS
from decklab.bots.registry import names_code
from decklab.engine.registry import get_game
from decklab.engine.state import seat_name
from decklab.server.errors import ServiceError
from decklab.server.seating import Joiner, Place, Seating
from decklab.server.service import TableService
from decklab.server.store.models import QuickPlayRow
from decklab.server.store.quickplay import QuickPlayStore

log = logging.getLogger("decklab.server")

WAIT_MIN_S = 10
WAIT_MAX_S = 300
"""The waits one may choose: long enough for others to come, short enough that "now"
stays true (Board Game Arena's automatic matchmaking and Lichess's pools also cap it)."""

PASS_OVER = ("seat_taken", "expired", "already_seated", "stale", "blocked", "seat_kept")
"""The refusals that make a table not this newcomer's: the next one is tried."""

Seater = Callable[[str, str], Awaitable[tuple[int, str]]]
"""``seat(table_id, seat_text) -> (seat, token)``: the caller's way of taking a seat
(as a guest or an account: the HTTP layer knows who asks)."""


@dataclass(frozen=True)
class Terms:
    """What a person asks for; two people meet when their terms are equal."""

    game: str
    min_players: int
    max_players: int
    wait_s: int
    level: str
    rated: bool = False


@dataclass(frozen=True)
class Seated:
    table_id: str
    seat: int
    token: str
    created: bool


def check_terms(terms: Terms) -> Terms:
    """The terms with the game's canonical name, or a ``bad_request`` naming what is wrong
    (before anything is created)."""
    try:
        cls = get_game(terms.game)
    except KeyError as exc:
        raise ServiceError("bad_request", str(exc.args[0])) from None
    info = cls.info
    low, high = max(2, info.min_players), info.max_players
    if high < 2:
        raise ServiceError("bad_request", f"{info.name} is played alone: there is no table to fill")
    if not low <= terms.min_players <= terms.max_players <= high:
        raise ServiceError(
            "bad_request",
            f"players {terms.min_players}–{terms.max_players}: {info.name} quick play takes "
            f"a range within {low}–{high}, smallest first",
        )
    if not WAIT_MIN_S <= terms.wait_s <= WAIT_MAX_S:
        raise ServiceError(
            "bad_request", f"wait {terms.wait_s} s: choose {WAIT_MIN_S}–{WAIT_MAX_S} seconds"
        )
    if terms.level not in LEVELS:
        if names_code(terms.level):
            raise ServiceError("bad_request", "a bot level may not name Python code (python:...)")
        raise ServiceError(
            "bad_request",
            f"unknown bot level {terms.level!r}: choose one of {', '.join(LEVELS)}",
        )
    return Terms(
        info.name, terms.min_players, terms.max_players, terms.wait_s, terms.level, terms.rated
    )


class QuickPlay:
    """The quick-play tables of this process: matching newcomers, and their deadlines."""

    def __init__(
        self, store: QuickPlayStore, service: TableService, seating: Seating | None = None
    ) -> None:
        self.store = store
        self.service = service
        self.seating = seating
        """The seating rules (:mod:`decklab.server.seating`), asked of each table a
        newcomer could be matched to; the app always gives them (None: a quick play made
        without accounts, which asks none)."""
        self._matching = asyncio.Lock()
        """One newcomer matched at a time, so that two arriving together meet."""
        self._due: list[tuple[float, str]] = []
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    async def start(self) -> None:
        """Set the alarm of every quick-play table still waiting (after a restart too)."""
        for deadline, table_id in await asyncio.to_thread(self.store.waiting):
            self._remember(deadline, table_id)
        self._task = asyncio.create_task(self._loop())

    async def close(self) -> None:
        # The flag too: a cancel that comes as the loop's wait ends is swallowed by
        # Python 3.11's wait_for, and the loop must still stop.
        self._closed = True
        self._changed.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _remember(self, deadline: float, table_id: str) -> None:
        heapq.heappush(self._due, (deadline, table_id))
        self._changed.set()

    async def play(self, terms: Terms, seat: Seater, joiner: Joiner | None = None) -> Seated:
        """Seat the asker (``joiner``; None: a guest nothing is known of) at a waiting table
        of the same terms with a free seat the seating rules give them, else at a new one
        (its deadline ``wait_s`` from now). A table where a block stands between them and
        someone seated is passed over, as a full one is: the blocked never meet their
        blocker there."""
        terms = check_terms(terms)
        who = joiner or Joiner()
        if self.seating is not None:  # a ban, a guest asking for rated: before anything
            await self.seating.check_seat(who, Place(None, terms.rated, None, frozenset()))
        async with self._matching:
            now = self.service.wall()
            found = await asyncio.to_thread(
                self.store.candidates,
                terms.game,
                terms.min_players,
                terms.max_players,
                terms.level,
                terms.rated,
                now,
            )
            for table_id in found:
                table = await self.service.table(table_id)
                for index, held in enumerate(table.seats):
                    if held.kind != "open":
                        continue
                    try:
                        if self.seating is not None:
                            await self.seating.check_at(who, table, index)
                        number, token = await seat(table_id, seat_name(index))
                    except ServiceError as exc:
                        if exc.code in PASS_OVER:
                            break  # this table is not for them: try the next one
                        raise
                    await self._taken(table_id, number, who)
                    return Seated(table_id, number, token, created=False)
            table = await self.service.create_table(
                terms.game, terms.max_players, [], public=True, rated=terms.rated
            )
            deadline = now + terms.wait_s
            row = QuickPlayRow(
                table_id=table.id,
                game=terms.game,
                min_players=terms.min_players,
                max_players=terms.max_players,
                level=terms.level,
                rated=terms.rated,
                deadline=deadline,
            )
            await asyncio.to_thread(self.store.add, row)
            number, token = await seat(table.id, seat_name(0))
            await self._taken(table.id, number, who)
            self._remember(deadline, table.id)
            log.info("quick play table", extra={"table": table.id, "game": terms.game})
            return Seated(table.id, number, token, created=True)

    async def _taken(self, table_id: str, seat: int, who: Joiner) -> None:
        if self.seating is not None:
            await self.seating.taken(table_id, seat, who)

    async def run_due(self) -> dict[str, str]:
        """Fill (or discard) every quick-play table whose deadline has passed by the
        service's wall clock; returns each one's status after."""
        now = self.service.wall()
        due: list[str] = []
        while self._due and self._due[0][0] <= now:
            due.append(heapq.heappop(self._due)[1])
        done: dict[str, str] = {}
        for table_id in due:
            row = await asyncio.to_thread(self.store.get, table_id)
            if row is None or row.deadline > now:
                continue
            try:
                done[table_id] = await self.service.seat_bots(table_id, row.level)
            except ServiceError as exc:  # a conflict with another process: ask again soon
                log.warning("quick play fill of %s failed: %s", table_id, exc)
                self._remember(now + 1.0, table_id)
        return done

    async def _loop(self) -> None:
        """Sleep until the earliest deadline (or a new one), then fill what is due."""
        while not self._closed:
            wait = 3600.0 if not self._due else self._due[0][0] - self.service.wall()
            if wait > 0:
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), min(wait, 3600.0))
                continue
            try:
                await self.run_due()
            except Exception:
                log.exception("quick play deadlines failed")
                await asyncio.sleep(1.0)

    async def waiting_view(self, table_id: str) -> dict[str, Any]:
        """What the waiting page shows: who sits, the terms, and the seconds left."""
        row = await asyncio.to_thread(self.store.get, table_id)
        if row is None:
            raise ServiceError("not_found", f"no quick-play table {table_id!r}", 404)
        table = await self.service.table(table_id)
        return {
            "table": table.id,
            "game": row.game,
            "status": table.status,
            "min_players": row.min_players,
            "max_players": row.max_players,
            "level": row.level,
            "rated": bool(row.rated),
            "seconds_left": max(0.0, round(row.deadline - self.service.wall(), 1)),
            "seats": table.public_seats(),
        }

    async def leave(self, table_id: str, token: str | None) -> str:
        """Leave before the start: the seat is free again; an empty table is discarded."""
        if await asyncio.to_thread(self.store.get, table_id) is None:
            raise ServiceError("not_found", f"no quick-play table {table_id!r}", 404)
        return await self.service.free_seat(table_id, token)
