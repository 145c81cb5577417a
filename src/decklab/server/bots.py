"""Bots in seats: they think in worker processes, on a determinization of their seat.

The event loop hands a worker ``state.determinize(seat, rng)`` — a full state
consistent with what the seat may see, never the true one — so no bot can see a
hidden card even through a bug in the bot. The worker answers with the canonical
text of its action, which the service then validates against the true state like
any intent. Agents are built once per worker process and spec.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from decklab.bots.base import Agent
from decklab.bots.registry import make_agent
from decklab.engine.state import GameState

_AGENTS: dict[str, Agent] = {}
T = TypeVar("T")


def _agent(spec: str) -> Agent:
    agent = _AGENTS.get(spec)
    if agent is None:
        agent = _AGENTS[spec] = make_agent(spec)
    return agent


def think(spec: str, sample: GameState, seat: int) -> str:
    """In a worker: the action ``spec`` chooses for ``seat`` in the sample, as text."""
    action = _agent(spec).choose(sample, seat)
    return sample.action_to_string(seat, action)


@dataclass(frozen=True)
class HintResult:
    """A hint as it leaves a worker: the move, the bot's own figures (``reason``) and its
    explanation in the game's words with the runner-up (:mod:`decklab.bots.explain`).

    Everything here was worked out on the determinization the worker was handed, and
    the explanation from that sample's view of the seat, which is the seat's own view:
    it can name no card the seat cannot see."""

    action: str
    reason: str
    explanation: str = ""
    runner_up: str = ""
    margin: float | None = None
    unit: str = ""


def hint(spec: str, sample: GameState, seat: int) -> HintResult:
    """In a worker: what ``spec`` would play, with its reason and explanation."""
    got = _agent(spec).hint(sample, seat)
    return HintResult(got.text, got.reason, got.explanation, got.runner_up, got.margin, got.unit)


def _watch_parent(parent: int, nice: int = 0) -> None:
    """In a worker: exit when the server process is gone (even killed with SIGKILL),
    instead of lingering as an orphan; and yield the processor to the server by ``nice``."""
    if nice:
        _lower_priority(0, nice)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _lower_priority(pid: int, nice: int) -> None:
    """Give process ``pid`` (0: this one) the niceness ``nice``, if it is not lower yet."""
    with contextlib.suppress(OSError):
        if os.getpriority(os.PRIO_PROCESS, pid) < nice:
            os.setpriority(os.PRIO_PROCESS, pid, nice)


def _warm() -> int:
    from decklab.bots.registry import agent_entries

    agent_entries()  # imports every built-in agent module once, before the first move
    return 0


class BotPool:
    """A pool of worker processes for bots (and hints).

    ``spawn`` keeps the workers free of the server's threads and sockets.
    """

    def __init__(self, workers: int = 1, nice: int = 0) -> None:
        self.workers = workers
        self.nice = nice
        """How much lower the workers' scheduling priority is than the server's."""
        self._lowered: set[int] = set()
        self.executor: Executor = self._new_executor()
        self.restarts = 0
        """How many times a broken pool (a worker killed: out of memory, a signal) was replaced."""
        self._rng = random.Random()

    def _new_executor(self) -> Executor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_watch_parent,
            initargs=(os.getpid(), self.nice),
        )

    def sample(self, state: GameState, seat: int) -> GameState:
        """The only state a bot ever gets: a determinization from its own seat."""
        return state.determinize(seat, random.Random(self._rng.getrandbits(64)))

    async def _run(self, fn: Callable[..., T], *args: object) -> T:
        """Run ``fn`` in a worker; if the pool broke (a worker died), replace it and retry once.

        Without this, one worker killed from outside would leave every bot seat of
        the server silent for good: a broken ``ProcessPoolExecutor`` fails each job.
        """
        loop = asyncio.get_running_loop()
        executor = self.executor
        try:
            done = loop.run_in_executor(executor, fn, *args)
            self._lower_new_workers(executor)
            return await done
        except BrokenExecutor:
            if self.executor is executor:  # not replaced already by another caller
                executor.shutdown(wait=False, cancel_futures=True)
                self.executor = self._new_executor()
                self.restarts += 1
            return await loop.run_in_executor(self.executor, fn, *args)

    def _lower_new_workers(self, executor: Executor) -> None:
        """Lower the priority of workers just started, from here: their own initializer
        runs only once they have imported decklab, a second of work at full priority
        that, on a machine with few cores, took the processor from the event loop."""
        if not self.nice:
            return
        for pid in getattr(executor, "_processes", None) or {}:
            if pid not in self._lowered:
                self._lowered.add(pid)
                _lower_priority(pid, self.nice)

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in a worker: the heavy requests (:mod:`.heavy`) use a pool of their own."""
        return await self._run(fn, *args)

    async def choose(self, spec: str, state: GameState, seat: int) -> str:
        return await self._run(think, spec, self.sample(state, seat), seat)

    async def hint(self, spec: str, state: GameState, seat: int) -> HintResult:
        return await self._run(hint, spec, self.sample(state, seat), seat)

    async def warm(self) -> None:
        await self._run(_warm)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
