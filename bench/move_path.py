"""How many times one move passes through the table service.

One person's move at a table of two people with a clock, followed by both seats and
a spectator: every Python function called (or resumed) while ``act()`` runs is
counted with :func:`sys.setprofile`, and those defined in ``server/service.py``
reported, the :class:`TableService` methods apart. Run from a checkout::

    PYTHONPATH=src python bench/move_path.py

(It runs on the service before it was split too, for the figure to compare.)
"""

from __future__ import annotations

import asyncio
import collections
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

from decklab.engine.registry import game_names, get_game
from decklab.server import service as service_module
from decklab.server.config import Settings
from decklab.server.service import TableService
from decklab.server.store.db import make_engine, upgrade
from decklab.server.store.queries import Store

try:
    from decklab.server.table import ClockSpec, SeatSpec
except ImportError:  # the service before the split
    from decklab.server.service import ClockSpec, SeatSpec  # type: ignore[attr-defined]

SERVICE = str(Path(service_module.__file__).resolve())


def two_player_game() -> str:
    for name in game_names():
        info = get_game(name).info
        if info.min_players <= 2 <= info.max_players:
            return name
    raise SystemExit("no game for two")


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/path.sqlite3"
        upgrade(url)
        svc = TableService(Store(make_engine(url)), Settings(grace_s=600.0))
        await svc.start()
        table = await svc.create_table(
            two_player_game(), 2, [SeatSpec(), SeatSpec()], clock=ClockSpec(600, 5)
        )
        tokens = dict([await svc.join(table.id, "p1", "a"), await svc.join(table.id, "p2", "b")])
        hub: Any = getattr(svc, "hub", svc)
        for viewer in (0, 1, None):
            hub.subscribe(table, viewer)
        seat = table.state.to_act()[0]
        text = table.views().legal(seat)[0]
        calls: collections.Counter[str] = collections.Counter()

        def profile(frame: FrameType, event: str, arg: Any) -> None:
            if event == "call" and frame.f_code.co_filename == SERVICE:
                calls[frame.f_code.co_qualname] += 1

        sys.setprofile(profile)
        try:
            await svc.act(table.id, tokens[seat], text, table.version, "c1")
        finally:
            sys.setprofile(None)
        methods = {
            name: n
            for name, n in calls.items()
            if name.startswith("TableService.") and "<locals>" not in name
        }
        print(f"game {table.cls.info.name}, {SERVICE}")
        print(f"  calls into service.py:       {sum(calls.values())} ({len(calls)} functions)")
        print(f"  TableService method calls:   {sum(methods.values())}")
        print(f"  distinct TableService methods: {len(methods)}")
        for name, n in calls.most_common():
            print(f"    {n:3d} {name}")
        await svc.close()


if __name__ == "__main__":
    asyncio.run(main())
