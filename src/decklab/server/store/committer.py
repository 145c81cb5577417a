"""Group commit: the events of many tables written in one transaction, one fsync.

Every accepted action must be committed before anyone is told of it, and each
commit waits for the disk (SQLite's ``synchronous=FULL``, PostgreSQL's WAL flush).
Committed one by one, each in its own thread hop, a few hundred tables a second
queue up behind the disk and the thread pool. Here every write asked for while a
transaction is being written waits for the next one, and that transaction carries
all of them: the batch grows with the load, one writer at a time (SQLite has only
one anyway), and each caller is answered only once its transaction has committed
— the guarantee does not change, only how many events share a fsync.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from decklab.server import trace
from decklab.server.store.queries import Store, Write

log = logging.getLogger("decklab.server.store")
CHECKPOINT_EVERY = 200
"""Writes between two checkpoints of SQLite's WAL (a move is a page or two)."""


class GroupCommitter:
    """Writes queued by the table service, committed in batches off the event loop."""

    def __init__(self, store: Store, max_batch: int = 256) -> None:
        self.store = store
        self.max_batch = max_batch
        self._pending: list[tuple[Write, asyncio.Future[None]]] = []
        self._running: asyncio.Task[None] | None = None
        self._since_checkpoint = 0
        self._checkpointing: asyncio.Task[None] | None = None

    async def commit(self, write: Write) -> None:
        """Return once ``write`` is committed; raise what refused it (a version conflict)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((write, done))
        if self._running is None or self._running.done():
            self._running = asyncio.create_task(self._drain())
        await done

    async def _drain(self) -> None:
        while self._pending:
            batch = self._pending[: self.max_batch]
            del self._pending[: len(batch)]
            began = time.monotonic()
            try:
                results = await asyncio.to_thread(self.store.commit_many, [w for w, _ in batch])
            except BaseException as exc:  # the thread itself failed: nobody is told "done"
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc if isinstance(exc, Exception) else RuntimeError())
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            trace.batch(len(batch), time.monotonic() - began)
            self._since_checkpoint += len(batch)
            if self._since_checkpoint >= CHECKPOINT_EVERY and (
                self._checkpointing is None or self._checkpointing.done()
            ):
                self._since_checkpoint = 0
                self._checkpointing = asyncio.create_task(self._checkpoint())
            for (_, done), result in zip(batch, results, strict=True):
                if done.done():
                    continue
                if result is None:
                    done.set_result(None)
                else:
                    done.set_exception(result)

    async def _checkpoint(self) -> None:
        try:
            await asyncio.to_thread(self.store.checkpoint)
        except Exception as exc:  # a busy database: the next one will do it
            log.warning("checkpoint failed: %s", exc)

    async def close(self) -> None:
        for task in (self._running, self._checkpointing):
            if task is not None:
                with contextlib.suppress(BaseException):
                    await task
