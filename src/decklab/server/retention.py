"""Retention: old chat and old finished tables leave the database, if the host says so.

A server kept running for friends piles up every game ever played and every word said
at a table. ``--chat-retention-days`` (90 by default: a report keeps its own copy) and
``--finished-retention-days`` (off, 0, by default, because a finished game is also its
replay and its record) bound that. The
sweep runs in each server process now and then (the deletes are idempotent, so several
processes on one database only repeat each other's work); a finished table still held in
memory stays there until it is let go as idle (``--idle-table``, minutes, against days).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import logging
from dataclasses import dataclass

from decklab.server.config import Settings
from decklab.server.store.queries import Store

log = logging.getLogger("decklab.server.retention")
DAY_S = 86400.0


@dataclass(frozen=True)
class Swept:
    chat_lines: int
    tables: int


def sweep(store: Store, settings: Settings, now: _dt.datetime | None = None) -> Swept:
    """Delete what is past its retention (synchronous: run it off the event loop)."""
    now = now or _dt.datetime.now(_dt.UTC)
    chat = tables = 0
    if settings.chat_retention_days > 0:
        chat = store.delete_chat_before(now - _dt.timedelta(days=settings.chat_retention_days))
    if settings.finished_retention_days > 0:
        cutoff = now - _dt.timedelta(days=settings.finished_retention_days)
        while batch := store.delete_finished_before(cutoff):
            tables += len(batch)
    if chat or tables:
        log.info("retention: %d chat lines and %d finished tables deleted", chat, tables)
    return Swept(chat, tables)


class RetentionSweep:
    """The periodic sweep of one server process (nothing runs when no retention is set)."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.settings.chat_retention_days > 0 or self.settings.finished_retention_days > 0:
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                await asyncio.to_thread(sweep, self.store, self.settings)
            except Exception:
                log.exception("the retention sweep failed")
            await asyncio.sleep(self.settings.retention_sweep_s)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
