"""The server's garbage collection: no full collection in the middle of a move.

CPython collects its oldest generation whenever it has grown by a quarter, and
such a collection walks every tracked object of the process while the event loop
stands still. With 500 tables in play (about 375,000 tracked objects) the load
benchmark caught pauses of 70–300 ms every few seconds, and they *were* the p99
latency: every intent that arrived during one waited for it. The young
generations are cheap (under 15 ms at that load) and stay CPython's.

So the server, when :attr:`Settings.full_gc_every_s` is set (``decklab serve``
sets it; ``--full-gc-every 0`` keeps CPython's own behaviour):

1. freezes what exists once the application is built (modules, classes, the
   OpenAPI models: objects that live as long as the process), so that no
   collection walks them again (:func:`gc.freeze`);
2. turns CPython's automatic full collections off, and
3. runs one itself every ``every_s`` seconds: reference cycles that reached the
   oldest generation are still freed, within minutes, and the pause falls on one
   move in tens of thousands instead of one in a hundred;
4. freezes what survived each of its collections, so that the next one walks only
   what is newer. Tables at rest (10,000 turn-based tables are about 400,000
   objects) otherwise made every collection a 0.7–1.4 s stop of the event loop
   (issue 21's load bench). A cycle frozen while alive and dropped later is freed
   by a *deep* collection, which thaws everything first: one in ``deep_every``
   (hourly at the default five minutes), so such garbage lives at most that long.

On shutdown the interpreter's thresholds are restored and the frozen objects
thawed, so an application built inside a test leaves the process as it found it.
This is CPython 3.11–3.13's generational collector; the policy is harmless but
pointless where the collector is incremental.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time

from decklab.server import trace

log = logging.getLogger("decklab.server.heap")

NEVER = 1 << 30
"""A full-collection threshold no count of young collections reaches."""


class HeapPolicy:
    """Full collections on a timer instead of whenever the heap has grown."""

    def __init__(self, every_s: float, deep_every: int = 12) -> None:
        if every_s <= 0:
            raise ValueError("a full collection needs a positive interval")
        if deep_every < 1:
            raise ValueError("a deep collection needs a positive cadence")
        self.every_s = every_s
        self.deep_every = deep_every
        self.collections = 0
        self.last_deep = False
        self.last_pause_s = 0.0
        self._saved: tuple[int, int, int] | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def active(self) -> bool:
        return self._saved is not None

    def start(self) -> None:
        """Freeze the start-up heap, switch automatic full collections off, start the timer."""
        if self._saved is not None:
            return
        young, middle, oldest = gc.get_threshold()
        self._saved = (young, middle, oldest)
        gc.collect()
        gc.freeze()
        gc.set_threshold(young, middle, NEVER)
        self._task = asyncio.create_task(self._timer())

    def collect(self, deep: bool | None = None) -> int:
        """One full collection now, of what is not frozen (``deep``: of everything,
        thawed first; by default every ``deep_every``-th), then the survivors frozen;
        returns the objects it freed."""
        if deep is None:
            deep = self.collections % self.deep_every == self.deep_every - 1
        began = time.perf_counter()
        if deep:
            gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.last_pause_s = time.perf_counter() - began
        self.last_deep = deep
        self.collections += 1
        trace.collection(self.last_pause_s)
        log.info(
            "full garbage collection%s: %d objects freed in %.1f ms",
            " (deep)" if deep else "",
            freed,
            self.last_pause_s * 1000,
        )
        return freed

    async def _timer(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(self.every_s)
                self.collect()

    async def stop(self) -> None:
        """Stop the timer and give the interpreter its own collector back."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            gc.unfreeze()
            self._saved = None
