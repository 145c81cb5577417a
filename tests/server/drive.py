"""Scripted players for the server tests: they know the game only through its frames."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from decklab.server.hub import Listener
from decklab.server.service import TableService
from decklab.server.table import Table


async def next_frame(listener: Listener, timeout: float = 20.0) -> dict[str, Any]:
    return await asyncio.wait_for(listener.queue.get(), timeout)


async def latest_state(listener: Listener, timeout: float = 20.0) -> dict[str, Any]:
    """The newest state frame queued (waiting for one if none is)."""
    state = None
    while state is None or not listener.queue.empty():
        frame = await next_frame(listener, timeout)
        if frame.get("state") is not None:
            state = frame["state"]
    return state


async def play_human(
    service: TableService,
    table: Table,
    seat: int,
    token: str,
    rng: random.Random,
    limit: int = 5000,
) -> int:
    """Play random legal moves for ``seat`` from its frames until the game ends; moves made."""
    key, listener = service.hub.subscribe(table, seat)
    moves = 0
    try:
        while moves < limit:
            state = await latest_state(listener)
            if state["status"] == "finished":
                return moves
            if not state["legal"]:
                continue
            text = rng.choice(state["legal"])
            try:
                await service.act(table.id, token, text, state["version"], f"c{seat}-{moves}")
            except Exception as exc:  # a stale intent: another seat moved first
                if getattr(exc, "code", None) != "stale":
                    raise
                continue
            moves += 1
        raise AssertionError("the game did not end")
    finally:
        service.hub.unsubscribe(table, key)
