"""CPU-heavy requests: replays, records, hints and solo statistics, done in worker processes.

A replay rebuilds a game action by action through the engine: the 700 actions of a
ten-seat game take most of a second of pure Python. Done on the event loop, that
second stalls every table of the server (and a thread would not help: it holds the
GIL just the same). So the service hands such work, as plain data, to a small pool
of worker processes of its own (a :class:`~decklab.server.bots.BotPool`, apart from
the one the seated bots think in, so that no flood of hints slows a table's bots),
and :class:`HeavyGate` bounds what one client address may have in flight, and what
all of them may have, so that one client cannot take the pool for itself.

The functions here (and :func:`decklab.server.replay.replay_text`) run in the
workers: each takes plain, picklable values and returns JSON-ready ones.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, TypeVar

from decklab.engine import records
from decklab.engine.registry import get_game
from decklab.engine.state import GameState, Viewer
from decklab.server import frames
from decklab.server.bots import BotPool
from decklab.server.config import Settings
from decklab.server.errors import ServiceError

T = TypeVar("T")
HEAVY_NICE = 10
"""The heavy workers run at a lower priority than the server: on a machine with fewer
free cores than busy workers, the event loop still gets the processor when it wakes."""


def record_of(
    state: GameState,
    players: dict[str, str],
    viewer: Viewer,
    outcome: dict[str, Any] | None = None,
) -> str:
    """In a worker: :func:`decklab.engine.records.make_record` of the state (the full
    record for ``viewer`` :data:`decklab.engine.state.ALL`, else that seat's copy), as
    JSON text (encoding a long game's record is the loop's time too).

    ``outcome``, a finished table's result, is the record's result where the game
    itself did not reach its end (a seat forfeited): the actions replay to the state
    where it stopped, and the head says how it ended."""
    record = records.make_record(state, players=players, viewer=viewer)
    if outcome is not None and not state.is_terminal():
        record["result"] = dict(outcome)
    return frames.encode(record)


def solo_stats(
    rows: Sequence[tuple[str, int | None, float, bool]], game: str | None
) -> dict[str, Any]:
    """In a worker: a nickname's solo statistics per game from its results in the order
    played (game, deal, score, perfect): games, perfect, average, best, streaks, deals."""
    out: dict[str, Any] = {}
    for name in [game] if game else sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == name]
        lower = get_game(name).info.lower_is_better
        scores = [r[2] for r in mine]
        run = longest = 0
        for r in mine:
            run = run + 1 if r[3] else 0
            longest = max(longest, run)
        deals: dict[int | None, list[tuple[str, int | None, float, bool]]] = {}
        for r in mine:
            deals.setdefault(r[1], []).append(r)
        out[name] = {
            "games": len(mine),
            "perfect": sum(1 for r in mine if r[3]),
            "average": sum(scores) / len(scores) if scores else None,
            "best": (min(scores) if lower else max(scores)) if scores else None,
            "current_streak": run,
            "longest_streak": longest,
            "deals": [
                {
                    "deal": d,
                    "games": len(rs),
                    "perfect": sum(1 for r in rs if r[3]),
                    "best": min(r[2] for r in rs) if lower else max(r[2] for r in rs),
                }
                for d, rs in sorted(deals.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))
            ],
        }
    return out


class HeavyGate:
    """Admission to the heavy pool: at most ``per_address`` requests in flight from one
    client address and ``total`` from all (running or waiting for a worker).

    Past the first bound the client is told to slow down (429); past the second the
    server is busy for everyone (503). Either way the refusal costs the loop nothing,
    and a client that asks for a thousand replays at once gets ``per_address`` of
    them worked on and the rest refused at once instead of queued for minutes."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total = total
        self.in_flight: dict[str, int] = {}
        self.count = 0

    def enter(self, address: str) -> str | None:
        """None if admitted (then :meth:`leave` once done), else why not:
        ``"address"`` (this address has its share) or ``"full"`` (everyone's is taken)."""
        if self.in_flight.get(address, 0) >= self.per_address:
            return "address"
        if self.count >= self.total:
            return "full"
        self.in_flight[address] = self.in_flight.get(address, 0) + 1
        self.count += 1
        return None

    def leave(self, address: str) -> None:
        left = self.in_flight.get(address, 0) - 1
        if left > 0:
            self.in_flight[address] = left
        else:
            self.in_flight.pop(address, None)
        self.count = max(0, self.count - 1)

    @contextlib.contextmanager
    def share(self, address: str | None) -> Iterator[None]:
        """Hold one of the asker's slots meanwhile: refused at once (429, or 503 when
        everyone's slots are taken) rather than queued behind work nobody may wait for."""
        key = address or "local"
        refused = self.enter(key)
        if refused == "address":
            raise ServiceError(
                "rate_limited",
                f"at most {self.per_address} replays, records, hints or statistics "
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
            self.leave(key)


class ReplayCache:
    """The replay answers of finished tables (they never change), the most recently
    asked ``size`` of them: a game reviewed step by step back and forth, or shared and
    opened by many, is rebuilt once per step instead of once per request."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self.held: OrderedDict[Hashable, str] = OrderedDict()

    def get(self, key: Hashable) -> str | None:
        found = self.held.get(key)
        if found is not None:
            self.held.move_to_end(key)
        return found

    def put(self, key: Hashable, value: str) -> None:
        self.held[key] = value
        self.held.move_to_end(key)
        while len(self.held) > self.size:
            self.held.popitem(last=False)


class HeavyWork:
    """The heavy pool as the service uses it: handed in, or made at the first request
    (with ``heavy_workers`` 0, none: the work runs in a thread of this process, for
    embedding); each request within its asker's share (:meth:`HeavyGate.share`)."""

    def __init__(self, settings: Settings, pool: BotPool | None = None) -> None:
        self.settings = settings
        self.pool = pool
        self._own = False
        self.closed = False
        self.gate = HeavyGate(settings.heavy_per_address, settings.heavy_in_flight)
        self.replays = ReplayCache()

    def workers(self) -> BotPool | None:
        if self.pool is None and self.settings.heavy_workers > 0 and not self.closed:
            self.pool = BotPool(self.settings.heavy_workers, nice=HEAVY_NICE)
            self._own = True
        return self.pool

    async def work(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` worked out in the pool, not on the loop."""
        workers = self.workers()
        if workers is None:
            return await asyncio.to_thread(fn, *args)
        return await workers.run(fn, *args)

    async def run(self, address: str | None, fn: Callable[..., T], *args: Any) -> T:
        """:meth:`work` within the asker's share."""
        with self.gate.share(address):
            return await self.work(fn, *args)

    def close(self) -> None:
        self.closed = True
        if self._own and self.pool is not None:
            self.pool.close()
