"""The server's own full garbage collections (decklab.server.heap).

The policy changes interpreter-wide state (thresholds, the frozen generation), so
every test checks that it is given back exactly as it was found.
"""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from decklab.cli import app as cli_app
from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.heap import NEVER, HeapPolicy

from .conftest import TestClient, fast_settings


def test_policy_freezes_start_up_heap_turns_off_automatic_full_collections_and_restores() -> None:
    before = gc.get_threshold()

    async def scenario() -> tuple[tuple[int, int, int], int, int]:
        policy = HeapPolicy(every_s=0.02)
        policy.start()
        during = gc.get_threshold()
        frozen = gc.get_freeze_count()
        deadline = time.monotonic() + 30
        while policy.collections < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)  # the timer's collections run meanwhile
        ran = policy.collections
        await policy.stop()
        return during, frozen, ran

    during, frozen, ran = asyncio.run(scenario())
    assert during == (before[0], before[1], NEVER)
    assert frozen > 1000  # modules, classes, functions: the start-up heap
    assert ran >= 2
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_cycle_made_after_start_is_freed_by_the_policys_collection() -> None:
    class Node:
        def __init__(self) -> None:
            self.me = self

    async def scenario() -> int:
        policy = HeapPolicy(every_s=3600)
        policy.start()
        try:
            import weakref

            node = Node()
            alive = weakref.ref(node)
            del node
            # Automatic full collections are off; a young one may or may not have run,
            # but the policy's full collection must free it in any case.
            policy.collect()
            assert alive() is None
            return policy.collections
        finally:
            await policy.stop()

    assert asyncio.run(scenario()) == 1


def test_what_survives_a_collection_is_frozen_and_a_deep_one_frees_it_later() -> None:
    """Issue 21: tables at rest must not be walked by every collection (they made each
    one a second-long stop at 10,000 tables); what the policy froze alive and that
    became a cycle of garbage since is freed by the next deep collection."""
    import weakref

    class Node:
        def __init__(self) -> None:
            self.me = self

    async def scenario() -> None:
        policy = HeapPolicy(every_s=3600, deep_every=3)
        policy.start()
        try:
            resting = [Node() for _ in range(2000)]  # tables at rest: they survive
            before = gc.get_freeze_count()
            policy.collect()
            assert not policy.last_deep
            # the survivors are frozen: the next ordinary collection does not walk them
            assert gc.get_freeze_count() >= before + 2000
            assert all(gc.is_tracked(n) for n in resting[:3])
            alive = weakref.ref(resting[0])
            del resting
            policy.collect()  # ordinary: the frozen cycles stay, as documented
            assert not policy.last_deep and alive() is not None
            policy.collect()  # the third: deep, everything thawed and walked
            assert policy.last_deep and alive() is None
        finally:
            await policy.stop()

    asyncio.run(scenario())
    assert gc.get_freeze_count() == 0


def test_policy_refuses_a_non_positive_interval() -> None:
    with pytest.raises(ValueError, match="positive"):
        HeapPolicy(0)
    with pytest.raises(ValueError, match="cadence"):
        HeapPolicy(1, deep_every=0)


def test_the_application_runs_the_policy_only_when_asked(tmp_path: Path) -> None:
    before = gc.get_threshold()
    pool = BotPool(workers=1)
    try:
        url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
        plain = create_app(fast_settings(database_url=url), pool=pool)
        with TestClient(plain, base_url="http://testserver") as client:
            assert client.get("/api/health").status_code == 200
            assert plain.state.heap is None
            assert gc.get_threshold() == before
        timed = create_app(fast_settings(database_url=url, full_gc_every_s=0.05), pool=pool)
        with TestClient(timed, base_url="http://testserver") as client:
            assert gc.get_threshold()[2] == NEVER
            deadline = time.monotonic() + 30
            while timed.state.heap.collections < 2 and time.monotonic() < deadline:
                client.get("/api/health")
                time.sleep(0.05)
            assert timed.state.heap.collections >= 2
        assert gc.get_threshold() == before
        assert gc.get_freeze_count() == 0
    finally:
        pool.close()


def test_serve_refuses_a_negative_interval() -> None:
    got = CliRunner().invoke(cli_app, ["serve", "--full-gc-every", "-1"])
    assert got.exit_code == 2
    assert "full-gc-every" in got.output
