"""Moderation: a creator removing a person before the start, mutes and blocks, reports,
and the bans that ``decklab admin`` writes (docs/server.md, "Moderation").

Mutes live in the database and, for the chat frames, in one in-memory map per process
(``TableService.muted``), read whole at start and changed with each request here: a
line a person muted is then filtered per viewer without a query on the chat's path.

Every ban, unban, mute and block also moves the database's moderation clock on (one
counter, in the change's transaction). Each process reads that counter every
:data:`WATCH_S` (one primary-key read) and, when it moved, re-reads the mutes, the
banned accounts and the banned addresses: a change made by another server process, or
by ``decklab admin`` with nothing but the database, holds everywhere within a second,
on SQLite as on PostgreSQL. A newly banned account's seats are then handed to bots
(:meth:`TableService.hand_over_banned`) by whichever process gets there first (the
table's version check lets one of them commit it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from decklab.engine.state import seat_name
from decklab.server.accounts.names import name_key
from decklab.server.accounts.service import Caller
from decklab.server.config import Settings
from decklab.server.controls import strip_controls
from decklab.server.errors import ServiceError
from decklab.server.service import TableService
from decklab.server.store.models import ReportRow
from decklab.server.store.moderation import ModerationStore
from decklab.server.tokens import hash_token, new_token

log = logging.getLogger("decklab.server.moderation")

REASON_MAX = 500
WATCH_S = 0.25
"""How often each process reads the moderation clock: a ban or a mute made anywhere holds
here within this (plus the re-read), well inside a second."""


class ModerationService:
    def __init__(self, store: ModerationStore, tables: TableService, settings: Settings) -> None:
        self.store = store
        self.tables = tables
        self.settings = settings
        self._banned: frozenset[str] = frozenset()
        self._banned_read = -1e18
        self._clock: int | None = None
        self._watch: asyncio.Task[None] | None = None
        self.ban_listeners: list[Callable[[int], None]] = []
        """Told each account newly banned (the bot API ends its event streams)."""

    async def start(self) -> None:
        await self.catch_up()
        self._watch = asyncio.create_task(self._watch_loop())

    async def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None

    async def _watch_loop(self) -> None:
        while not self.tables.closed:
            await asyncio.sleep(WATCH_S)
            try:
                await self.catch_up()
            except Exception:  # the database away a moment: the next read tries again
                log.exception("moderation catch-up failed")

    async def catch_up(self) -> bool:
        """If the moderation clock moved, take the database's mutes and bans as they are
        now, and hand newly banned accounts' seats to bots. Whether it moved."""
        clock = await asyncio.to_thread(self.store.clock)
        if clock == self._clock:
            return False
        self._clock = clock
        mutes = await asyncio.to_thread(self.store.mutes)
        self.tables.muted.clear()
        self.tables.muted.update(mutes)
        self._banned = await asyncio.to_thread(self.store.banned_addresses)
        self._banned_read = time.monotonic()
        banned = await asyncio.to_thread(self.store.banned_accounts)
        new = banned - self.tables.banned
        self.tables.banned = banned
        for account_id in new:
            for listener in self.ban_listeners:
                listener(account_id)
        await self.hand_over(banned)
        return True

    async def hand_over(self, banned: frozenset[int]) -> None:
        """Every seat a token still opens for a banned account goes to a bot. Another
        process doing the same at once makes the commit stale: tried again, the seat is
        found handed over already."""
        for table_id, account_id in await asyncio.to_thread(self.store.banned_tables, banned):
            for _ in range(3):
                try:
                    await self.tables.hand_over_banned(table_id, account_id)
                    break
                except ServiceError as exc:
                    if exc.code != "stale":
                        log.warning("seat hand-over failed: %s", exc, extra={"table": table_id})
                        break

    async def is_banned(self, account_id: int) -> bool:
        """Whether the account is banned now, read from the database (the seating rules
        ask it where they hold no fresh account row)."""
        return await asyncio.to_thread(self.store.is_banned, account_id)

    # ------------------------------------------------------------ creators
    async def created(self, table_id: str, caller: Caller | None) -> str:
        """Record who created the table; returns the creator token (shown once)."""
        token = new_token()
        account_id = None if caller is None else caller.account.id
        await asyncio.to_thread(self.store.set_creator, table_id, hash_token(token), account_id)
        return token

    async def remove(
        self, table_id: str, seat_text: str, creator_token: str | None, caller: Caller | None
    ) -> str:
        table = await self.tables.table(table_id)
        creator = await asyncio.to_thread(self.store.creator, table.id)
        allowed = creator is not None and (
            (creator_token is not None and hash_token(creator_token) == creator.token_hash)
            or (caller is not None and caller.account.id == creator.account_id)
        )
        if not allowed:
            raise ServiceError("forbidden", "only the table's creator may remove a person", 403)
        return seat_name(await self.tables.remove(table.id, seat_text))

    async def blocks(self, account_id: int, other_id: int) -> bool:
        return await asyncio.to_thread(self.store.blocks, account_id, other_id)

    # ------------------------------------------------------------ mutes and blocks
    async def _other(self, caller: Caller, username: str) -> int:
        other = await asyncio.to_thread(self.store.account_id, name_key(username))
        if other is None:
            raise ServiceError("not_found", "no such account", 404)
        if other == caller.account.id:
            raise ServiceError("bad_request", "you cannot mute or block yourself")
        return other

    async def mute(self, caller: Caller, username: str, block: bool) -> None:
        other = await self._other(caller, username)
        await asyncio.to_thread(self.store.mute, caller.account.id, other, block)
        self.tables.muted.setdefault(caller.account.id, set()).add(other)

    async def unmute(self, caller: Caller, username: str, block_only: bool) -> None:
        other = await self._other(caller, username)
        await asyncio.to_thread(self.store.unmute, caller.account.id, other, block_only)
        if not block_only:
            self.tables.muted.get(caller.account.id, set()).discard(other)

    async def listed(self, caller: Caller) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.store.listed, caller.account.id)
        return [{"username": name, "blocked": block} for name, block in rows]

    # ------------------------------------------------------------ reports
    async def report(
        self,
        table_id: str,
        seat_text: str,
        reason: str,
        token: str | None,
        caller: Caller | None,
    ) -> int:
        """Store a report of ``seat_text``'s person with the table's chat as it is now.
        The reporter is a seated person (their token) or a logged-in account."""
        text = strip_controls(reason, keep_newlines=True).strip()
        if not text or len(text) > REASON_MAX:
            raise ServiceError("bad_request", f"a reason is 1 to {REASON_MAX} characters")
        table = await self.tables.table(table_id)
        seat = table.seat_index(seat_text)
        reporter_seat = table.seat_of(token) if token else None
        if token and reporter_seat is None:
            raise ServiceError("forbidden", "that seat token is not one of this table's", 403)
        if caller is not None:
            reporter = f"account:{caller.account.username}"
        elif reporter_seat is not None:
            nick = table.seats[reporter_seat].nickname or ""
            reporter = f"seat:{seat_name(reporter_seat)} {nick}"[:80]
        else:
            raise ServiceError("unauthorized", "log in or take a seat to report someone", 401)
        target = table.seats[seat]
        if target.kind != "human":
            raise ServiceError("bad_request", f"nobody sits at {seat_name(seat)}")
        chat = await asyncio.to_thread(self.store.chat_of, table.id)
        row = ReportRow(
            table_id=table.id,
            seat=seat,
            nickname=target.nickname,
            account_id=target.account_id,
            reporter=reporter,
            reason=text,
            chat=chat,
        )
        return await asyncio.to_thread(self.store.add_report, row)

    # ------------------------------------------------------------ bans
    async def address_banned(self, address: str) -> bool:
        now = time.monotonic()
        if now - self._banned_read >= self.settings.ban_refresh_s:
            self._banned_read = now
            self._banned = await asyncio.to_thread(self.store.banned_addresses)
        return address in self._banned


class BanGuard:
    """ASGI middleware: requests (and WebSockets) from a banned address are refused 403
    before any route runs. The service is looked up per request (made at start-up)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        moderation: ModerationService | None = None
        if scope["type"] in ("http", "websocket"):
            moderation = getattr(scope["app"].state, "moderation", None)
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if moderation is None or not await moderation.address_banned(address):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "banned"})
            return
        body = b'{"error": {"code": "banned", "message": "requests from this address are refused"}}'
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
