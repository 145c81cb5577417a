"""Makes ``before_accounts.sqlite3``: a database of the server as it was before accounts
(schema revision 0002), for the migration test. Run with that code first on the path:

    PYTHONPATH=/path/to/decklab-before-accounts/src python tests/server/data/make_before_accounts.py OUT

It plays a game alone to its end, a game of two to its end, leaves one in play with a
chat line, and one waiting for players.
"""

from __future__ import annotations

import asyncio
import random
import sys

from decklab.engine.registry import game_names, get_game
from decklab.server.bots import BotPool
from decklab.server.config import Settings
from decklab.server.service import TableService
from decklab.server.store.db import current_revision, make_engine, upgrade
from decklab.server.store.queries import Store


def _pick(wanted: object) -> str:
    return next(n for n in game_names() if wanted(get_game(n).info))  # type: ignore[operator]


async def _play(service: TableService, table_id: str, tokens: list[str], moves: int) -> None:
    rng = random.Random(7)
    table = await service.table(table_id)
    for step in range(moves):
        state = table.state
        if state.is_terminal():
            return
        seat = state.to_act()[0]
        text = state.action_to_string(seat, rng.choice(state.legal_actions(seat)))
        await service.act(table_id, tokens[seat], text, table.version, f"m{step}")


async def main(out: str) -> None:
    url = f"sqlite:///{out}"
    upgrade(url)
    assert current_revision(url) == "0002", current_revision(url)
    store = Store(make_engine(url))
    pool = BotPool(1)
    service = TableService(store, Settings(database_url=url, grace_s=600), pool, heavy_pool=pool)
    await service.start()
    try:
        solo = _pick(lambda i: i.max_players == 1)
        duo = _pick(lambda i: i.min_players <= 2 <= i.max_players and not i.simultaneous)
        alone = await service.create_table(solo, 1, [], deal=11)
        _, token = await service.join(alone.id, "p1", "solveig")
        await _play(service, alone.id, [token], 10000)
        done = await service.create_table(duo, 2, [])
        tokens = [(await service.join(done.id, f"p{i}", f"n{i}"))[1] for i in (1, 2)]
        await _play(service, done.id, tokens, 10000)
        going = await service.create_table(duo, 2, [])
        tokens = [(await service.join(going.id, f"p{i}", f"g{i}"))[1] for i in (1, 2)]
        await service.chat(going.id, tokens[0], "good luck")
        await _play(service, going.id, tokens, 3)
        await service.create_table(duo, 2, [])
    finally:
        await service.close()
        store.close()
        pool.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
