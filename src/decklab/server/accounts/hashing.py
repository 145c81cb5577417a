"""The password hashing pool: argon2 work on threads of its own, with a bounded queue.

Hashing is slow on purpose (tens of milliseconds of CPU and 64 MiB each). Run on the
event loop's default executor, it shared the threads every database call waits for:
eight wrong-password requests from one account held all six of them, and a move at an
unrelated table waited a second for its commit. So hashing gets its own threads, fewer
than the cores (argon2-cffi releases the GIL while it hashes, so one core stays for the
event loop and the database), and at most ``queue`` jobs running or waiting: past that,
a request is refused at once with 503 and ``Retry-After``, before any hashing is done,
instead of queueing behind work nobody may wait for.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from decklab.server.errors import ServiceError

T = TypeVar("T")


def default_workers() -> int:
    """One thread fewer than the cores (at least one): the loop keeps a core."""
    return max(1, (os.cpu_count() or 2) - 1)


HASH_NICE = 10
"""The hashing threads' niceness: on Linux a thread has its own, so when every core is
busy the event loop's thread (a move, a frame) gets the processor before a hash does."""


def _lower_priority() -> None:
    with contextlib.suppress(OSError, AttributeError):  # not Linux, or not allowed
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICE)


class HashPool:
    """``workers`` hashing threads; at most ``queue`` jobs admitted at once."""

    def __init__(self, workers: int, queue: int) -> None:
        if workers < 1 or queue < workers:
            raise ValueError("a hashing pool needs a worker and a queue at least as long")
        self.workers = workers
        self.queue = queue
        self.admitted = 0
        self.refused = 0
        self._executor: ThreadPoolExecutor | None = None

    @property
    def saturated(self) -> bool:
        """Whether the next job would be refused (readiness reports it)."""
        return self.admitted >= self.queue

    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(
                self.workers, thread_name_prefix="decklab-hash", initializer=_lower_priority
            )
        return self._executor

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` on a hashing thread, or 503 ``busy`` at once when the queue is full."""
        if self.saturated:
            self.refused += 1
            raise ServiceError(
                "busy", "the server is busy checking passwords: try again shortly", 503, 1
            )
        self.admitted += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool(), lambda: fn(*args))
        finally:
            self.admitted -= 1

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
