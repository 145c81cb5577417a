"""Turn-based tables at rest cost no CPU (issue 21, "Load"): the promise is structural,
so it is tested by structure rather than by timing. However many turn-based tables
wait for a move, the service holds the same asyncio tasks and timers (one task sleeps
until the earliest deadline of them all), no table holds a task of its own, nothing
reads the clock while they rest, and the one task wakes when the earliest deadline
comes, not before and not once per table. ``bench/server_load.py --idle`` measures
the same on a real server (docs/server.md, "Load")."""

from __future__ import annotations

import asyncio
import time

import pytest

from decklab.server import pace
from decklab.server.pace import TurnSpec
from decklab.server.service import TableService
from decklab.server.table import SeatSpec

from .conftest import started_service
from .games import two_player

pytestmark = pytest.mark.anyio

GAME = two_player()
DAY = 24 * 3600.0


class CountingWall:
    """The service's wall clock (the deadlines' clock), counting how often it is read."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return time.time()


async def _seated_turn_table(service: TableService, move_s: float) -> str:
    """A turn-based table whose two seats are taken and whose person to move waits."""
    table = await service.create_table(
        GAME, 2, [SeatSpec(), SeatSpec()], turn=TurnSpec(move_s, "forfeit")
    )
    for seat in ("p1", "p2"):
        await service.join(table.id, seat, f"n{seat}")
    return table.id


def _timers() -> int:
    """Timers the event loop holds (asyncio's own loop keeps them in ``_scheduled``)."""
    return len(asyncio.get_running_loop()._scheduled)  # type: ignore[attr-defined]


async def _at_rest() -> tuple[int, int]:
    await asyncio.sleep(0.3)  # the commits' and joins' own work done
    return len(asyncio.all_tasks()), _timers()


async def test_resting_turn_based_tables_hold_no_task_timer_or_clock_read(
    database_url: str,
) -> None:
    wall = CountingWall()
    # no bot pool: nothing here may think, so every task and timer left is the service's
    async with started_service(database_url, None, wall) as service:
        for _ in range(3):
            await _seated_turn_table(service, DAY)
        few = await _at_rest()
        for _ in range(40):
            await _seated_turn_table(service, DAY)
        many = await _at_rest()
        for _ in range(30):  # a busy host: the last joins' trailing work may still run
            if many == few:
                break
            many = await _at_rest()
        # 43 tables wait for a move: not one task or timer more than 3 did
        assert many == few, f"tasks and timers: {few} with 3 tables, {many} with 43"
        turn_tables = [t for t in service.tables.values() if t.turn is not None]
        assert len(turn_tables) == 43
        for table in turn_tables:
            assert table.status == "playing" and table.waited_for()
            assert all(task.done() for task in table.tasks.values()), table.tasks
        # at rest, nothing polls: the deadlines' clock is not read once in a second
        reads = wall.reads
        await asyncio.sleep(1.0)
        assert wall.reads == reads, f"the clock was read {wall.reads - reads} times at rest"


async def test_the_one_deadline_task_wakes_at_the_earliest_deadline_only(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pace, "MIN_MOVE_S", 0.1)  # a deadline a test can wait for
    wall = CountingWall()
    # no bot pool: nothing here may think, so every task and timer left is the service's
    async with started_service(database_url, None, wall) as service:
        wakes: list[float] = []
        real = service.run_deadlines

        async def spied() -> list[tuple[str, str]]:
            wakes.append(time.time())
            return await real()

        monkeypatch.setattr(service, "run_deadlines", spied)
        soon = await _seated_turn_table(service, 1.5)
        deadlines = (await service.table(soon)).deadlines
        assert deadlines is not None and len(deadlines.due) == 1
        deadline = min(deadlines.due.values())
        later = [await _seated_turn_table(service, DAY + k) for k in range(20)]
        tasks = len(asyncio.all_tasks())
        made = time.time()
        reads = wall.reads
        while (await service.table(soon)).status == "playing" and time.time() < made + 10:
            await asyncio.sleep(0.05)
        first = await service.table(soon)
        assert first.status == "finished" and first.outcome is not None
        assert "missed the deadline" in first.outcome["reason"]
        # woken once, for the one deadline that came, and not before it
        assert len(wakes) == 1, f"the deadline task woke {len(wakes)} times"
        assert wakes[0] >= deadline
        await asyncio.sleep(0.3)
        # the 20 others still wait, with no task of their own; the clock was read a few
        # times around that one wake, not once per table
        for table_id in later:
            table = await service.table(table_id)
            assert table.status == "playing" and table.waited_for()
            assert all(task.done() for task in table.tasks.values())
        assert len(asyncio.all_tasks()) <= tasks
        assert wall.reads - reads < 10, f"the clock was read {wall.reads - reads} times"
