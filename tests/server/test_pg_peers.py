"""When a process on PostgreSQL announces its changes: only while another process is
heard, and a process heard anew (new, or silent past the TTL) is told what it missed."""

from __future__ import annotations

import asyncio
import uuid
from types import SimpleNamespace
from typing import Any

import pytest

from decklab.server.pg_coordination import PEER_TTL_S, STARTUP_S, PgCoordinator

from . import pgserver

pytestmark = pytest.mark.anyio


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_notes_wait_for_a_listener_and_a_returning_one_is_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = _Clock()
    coordinator = PgCoordinator("postgresql+psycopg://x@127.0.0.1:1/none")
    coordinator.clock = clock
    sent: list[dict[str, Any]] = []

    def note(fields: dict[str, Any]) -> asyncio.Future[None]:  # "sent" at once
        sent.append(fields)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done

    monkeypatch.setattr(coordinator, "_queue_note", note)
    coordinator._control = object()  # type: ignore[assignment]  # "connected"
    tables = {"t1": SimpleNamespace(version=7), "t2": SimpleNamespace(version=3)}
    coordinator.service = SimpleNamespace(tables=tables)  # type: ignore[assignment]

    # just started: every change goes out (others may not have said "here" yet)
    coordinator._listening_since = clock.now
    await coordinator.announce("t1", "version", {"version": 6})
    assert [n["payload"] for n in sent] == [{"version": 6}]
    sent.clear()
    clock.now += STARTUP_S
    # alone: nothing is sent, the tables are remembered
    await coordinator.announce("t1", "version", {"version": 7})
    await coordinator.announce("t2", "version", {"version": 3})
    assert sent == [] and not coordinator.others_listen()
    # a chat note always goes (it cannot be told again later)
    await coordinator.announce("t1", "chat", {"text": "hi"})
    assert [n["kind"] for n in sent] == ["chat"]
    sent.clear()

    # another process is heard: both tables are told at their current versions
    tables["t1"].version = 8
    coordinator._heard("other")
    await _settle()
    assert sorted((n["table"], n["payload"]["version"]) for n in sent) == [("t1", 8), ("t2", 3)]
    sent.clear()
    # while it is heard, changes go out as they happen, and hearing it again tells nothing
    await coordinator.announce("t2", "version", {"version": 4})
    clock.now += PEER_TTL_S / 2
    coordinator._heard("other")
    await _settle()
    assert [(n["table"], n["payload"]) for n in sent] == [("t2", {"version": 4})]
    sent.clear()

    # silent past the TTL: taken as gone, so changes are kept back again ...
    clock.now += PEER_TTL_S
    assert not coordinator.others_listen()
    await coordinator.announce("t2", "version", {"version": 5})
    assert sent == []
    # ... and told when it is heard once more (a stalled process that came back)
    tables["t2"].version = 5
    coordinator._heard("other")
    await _settle()
    assert [(n["table"], n["payload"]) for n in sent] == [("t2", {"version": 5})]
    assert coordinator._untold == set()


async def test_a_released_table_can_be_claimed_by_another_process(
    pg_server: pgserver.PgServer,
) -> None:
    """A process that lets a finished table go out of memory frees its advisory lock."""
    url = pg_server.create_database(f"t_{uuid.uuid4().hex[:12]}")
    a, b = PgCoordinator(url), PgCoordinator(url)
    nobody = SimpleNamespace(tables={})
    await a.start(nobody)  # type: ignore[arg-type]
    await b.start(nobody)  # type: ignore[arg-type]
    try:
        assert await a.claim("t1") and a.drives("t1")
        assert not await b.claim("t1")
        await a.release("t1")
        assert not a.drives("t1")
        assert await b.claim("t1")
        await a.release("t2")  # one it never held: nothing happens
    finally:
        await a.close()
        await b.close()
