"""Several server processes on one PostgreSQL database.

- A table is *driven* (its bots think, its clocks run) by the one process holding
  its session advisory lock; when that process dies its connection closes, the
  lock is freed, and another process's sweep takes the table over.
- Any process may accept an intent: the service checks the stored version first
  and moves it in the same transaction as the write (``UPDATE … WHERE version =``),
  so two processes never both commit one version.
- Every change is announced with ``NOTIFY decklab``; the other processes reload
  the table and send their own connections the event at once.
- Each process says it is there (a ``here`` note) when it starts listening and every
  :data:`HERE_EVERY_S` after. A process that has listened for :data:`STARTUP_S` (by
  then it has heard every live process's ``here``) and has heard nobody else for
  :data:`PEER_TTL_S` keeps its changes' notices to itself (nobody would read them:
  a single process on PostgreSQL pays no NOTIFY per move) and remembers which
  tables it did not announce; the moment another process is heard — a new one, or
  one silent for too long — it announces those tables' versions, so a process that
  loaded a table before hearing it moved still catches it up.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import time
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

from decklab.server.coordination import Coordinator, TableHost

log = logging.getLogger("decklab.server.pg")
CHANNEL = "decklab"
SWEEP_S = 2.0
NOTES_PER_STATEMENT = 100
HERE_EVERY_S = 2.0
PEER_TTL_S = 5 * HERE_EVERY_S
"""Another process not heard from for this long is taken as gone (five missed ``here``
notes: a stalled one that comes back is told what it missed)."""
STARTUP_S = 2 * HERE_EVERY_S
"""After it starts listening a process announces every change, as if others listened,
until every live process has had the time to say it is there."""


def lock_key(table_id: str) -> int:
    """A table's advisory lock: 64 bits of a hash of its id, as a signed bigint."""
    return int.from_bytes(
        hashlib.blake2b(table_id.encode(), digest_size=8).digest(), "big", signed=True
    )


def libpq_url(url: str) -> str:
    """``postgresql+psycopg://…`` (SQLAlchemy's spelling) as psycopg wants it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PgCoordinator(Coordinator):
    shared = True

    def __init__(self, url: str) -> None:
        self.url = libpq_url(url)
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.owned: set[str] = set()
        self._control: psycopg.AsyncConnection[Any] | None = None
        self._listen: psycopg.AsyncConnection[Any] | None = None
        self._lock = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self._notes: list[tuple[str, asyncio.Future[None]]] = []
        self._notifying: asyncio.Task[None] | None = None
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._refresh_again: set[str] = set()
        self._own_prefix = json.dumps({"origin": self.origin})[:-1] + ","
        self._peers: dict[str, float] = {}
        """Other processes' origins, and when each was last heard."""
        self._untold: set[str] = set()
        """Tables changed while nobody else listened: announced when somebody does."""
        self.clock = time.monotonic
        self._listening_since = float("-inf")

    async def start(self, service: TableHost) -> None:
        self.service = service
        self._control = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        self._listen = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        await self._listen.execute(f"LISTEN {CHANNEL}")
        self._listening_since = self.clock()
        self._tasks = [
            asyncio.create_task(self._listener()),
            asyncio.create_task(self._sweeper()),
            asyncio.create_task(self._here_loop()),
        ]

    async def claim(self, table_id: str) -> bool:
        if table_id in self.owned:
            return True
        assert self._control is not None
        async with self._lock:
            cursor = await self._control.execute(
                "SELECT pg_try_advisory_lock(%s)", (lock_key(table_id),)
            )
            row = await cursor.fetchone()
        if row is not None and row[0]:
            self.owned.add(table_id)
            return True
        return False

    def drives(self, table_id: str) -> bool:
        return table_id in self.owned

    async def release(self, table_id: str) -> None:
        if table_id not in self.owned or self._control is None:
            return
        self.owned.discard(table_id)
        async with self._lock:
            await self._control.execute("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))

    def others_listen(self) -> bool:
        """Whether another process has been heard lately (its notes are its ``here``s),
        or may have been without our hearing it yet (we have only just started)."""
        now = self.clock()
        if now - self._listening_since < STARTUP_S:
            return True
        return any(now - seen < PEER_TTL_S for seen in self._peers.values())

    async def announce(self, table_id: str, kind: str, payload: dict[str, Any]) -> None:
        if self._control is None:
            return
        if kind == "version" and not self.others_listen():
            self._untold.add(table_id)
            return
        await self._note({"table": table_id, "kind": kind, "payload": payload})

    async def _note(self, fields: dict[str, Any]) -> None:
        """Send one note and wait until it is sent."""
        await self._queue_note(fields)

    def _queue_note(self, fields: dict[str, Any]) -> asyncio.Future[None]:
        """Queue one note (batched with the others asked for meanwhile); done once sent."""
        body = json.dumps({"origin": self.origin, **fields})
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._notes.append((body, done))
        if self._notifying is None or self._notifying.done():
            self._notifying = asyncio.create_task(self._send_notes())
        return done

    async def _send_notes(self) -> None:
        """Every notice asked for while one statement is on its way goes in the next
        one: a busy process sends one round trip for many moves, not one each."""
        while self._notes and self._control is not None:
            batch = self._notes[:NOTES_PER_STATEMENT]
            del self._notes[: len(batch)]
            calls = ", ".join("pg_notify(%s, %s)" for _ in batch)
            args = [x for body, _ in batch for x in (CHANNEL, body)]
            try:
                async with self._lock:
                    await self._control.execute(f"SELECT {calls}", args)
            except psycopg.Error as exc:
                log.warning("notify failed: %s", exc)
            for _, done in batch:
                if not done.done():
                    done.set_result(None)
        for _, done in self._notes:
            if not done.done():
                done.set_result(None)
        if self._control is None:
            self._notes.clear()

    async def _listener(self) -> None:
        assert self._listen is not None
        try:
            async for note in self._listen.notifies():
                if note.payload.startswith(self._own_prefix):
                    continue  # our own, back from the channel: not even parsed
                try:
                    message = json.loads(note.payload)
                except ValueError:
                    continue
                origin = message.get("origin")
                if not isinstance(origin, str) or origin == self.origin:
                    continue
                self._heard(origin)
                table_id = message.get("table")
                if not isinstance(table_id, str):
                    continue
                if message.get("kind") == "chat":
                    self.service.remote_chat(table_id, message.get("payload") or {})
                elif table_id in self.service.tables:
                    self._refresh_soon(table_id)
        except (asyncio.CancelledError, psycopg.OperationalError):
            return

    def _heard(self, origin: str) -> None:
        """Another process spoke: if it is new, or was silent past the TTL, it may hold
        tables we changed without a word: tell it their versions now."""
        now = self.clock()
        last = self._peers.get(origin)
        self._peers[origin] = now
        if last is not None and now - last < PEER_TTL_S:
            return
        untold, self._untold = self._untold, set()
        for table_id in untold:
            table = self.service.tables.get(table_id)
            if table is not None:
                version = {"version": table.version}
                self._queue_note({"table": table_id, "kind": "version", "payload": version})

    async def _here_loop(self) -> None:
        """Say we are here now (we listen already: every note after it reaches us) and
        every :data:`HERE_EVERY_S`; forget processes silent for long."""
        try:
            while True:
                await self._note({"kind": "here"})
                now = self.clock()
                for origin, seen in list(self._peers.items()):
                    if now - seen >= PEER_TTL_S:  # gone; heard again, it counts as new
                        del self._peers[origin]
                await asyncio.sleep(HERE_EVERY_S)
        except asyncio.CancelledError:
            return

    def _refresh_soon(self, table_id: str) -> None:
        """Catch a table up in a task of its own, so that one table's database read does
        not hold up the notices of all the others; notices for a table that is being
        caught up meanwhile are folded into one more catch-up after it."""
        if table_id in self._refreshing:
            self._refresh_again.add(table_id)
            return

        async def refresh() -> None:
            try:
                while True:
                    self._refresh_again.discard(table_id)
                    try:
                        await self.service.refresh(table_id)
                    except Exception:
                        log.exception("refresh failed", extra={"table": table_id})
                    if table_id not in self._refresh_again:
                        return
            finally:
                self._refreshing.pop(table_id, None)

        self._refreshing[table_id] = asyncio.create_task(refresh())

    async def _sweeper(self) -> None:
        """Take over the tables nobody drives (a process died, or they were just made)."""
        try:
            while True:
                await asyncio.sleep(SWEEP_S)
                try:
                    ids = await asyncio.to_thread(self.service.store.playing)
                    for table_id in ids:
                        if table_id not in self.owned and await self.claim(table_id):
                            await self.service.adopt(table_id)
                except Exception:
                    log.exception("sweep failed")
        except asyncio.CancelledError:
            return

    async def close(self) -> None:
        for task in [*self._tasks, *self._refreshing.values()]:
            task.cancel()
        for conn in (self._listen, self._control):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self._control = self._listen = None
