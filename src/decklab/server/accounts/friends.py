"""Friends: a person's list of people they play with, invitations to a seat, and a
rematch with the same people. No transport: the routes call it.

A friend is one-way (adding someone asks nothing of them, as following on Lichess);
it is what lets one keep a seat of a waiting table for that person, which then only
they may take (:mod:`decklab.server.seating` keeps that rule, at every door). A rematch is play again, asked by an account rather than a seat token.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from decklab.engine.state import seat_name
from decklab.server.accounts import seats
from decklab.server.accounts.names import name_key
from decklab.server.errors import ServiceError
from decklab.server.service import LiveTable, TableService
from decklab.server.store.accounts import AccountStore
from decklab.server.store.friends import FriendStore
from decklab.server.store.models import AccountRow

MAX_FRIENDS = 500


class FriendService:
    def __init__(self, store: FriendStore, accounts: AccountStore, tables: TableService) -> None:
        self.store = store
        self.accounts = accounts
        self.tables = tables
        self.invite_listeners: list[Callable[[int, str, str, str], None]] = []
        """Told (invitee's account id, table id, game title, sender's name) of each
        invitation (the notifications)."""
        self.blocked: Callable[[int, int], Awaitable[bool]] | None = None
        """Whether an account blocks another (moderation; set by the app)."""

    async def _account(self, username: str) -> AccountRow:
        found = await asyncio.to_thread(self.accounts.by_name, name_key(username.strip()))
        if found is None:
            raise ServiceError("not_found", f"no account {username.strip()!r}", 404)
        return found

    async def friends(self, account: AccountRow) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.store.friends, account.id)
        return [{"username": name, "since": when.isoformat()} for name, when in rows]

    async def add(self, account: AccountRow, username: str) -> str:
        friend = await self._account(username)
        if friend.id == account.id:
            raise ServiceError("bad_request", "you cannot add yourself as a friend")
        if len(await self.friends(account)) >= MAX_FRIENDS:
            raise ServiceError("bad_request", f"at most {MAX_FRIENDS} friends")
        await asyncio.to_thread(self.store.add, account.id, friend.id)
        return friend.username

    async def remove(self, account: AccountRow, username: str) -> None:
        friend = await self._account(username)
        if not await asyncio.to_thread(self.store.remove, account.id, friend.id):
            raise ServiceError("not_found", f"{friend.username} is not on your friends list", 404)

    async def invite(
        self, account: AccountRow, table_id: str, seat_text: str, username: str
    ) -> dict[str, str]:
        """Keep an open seat of a waiting table, where the caller sits, for a friend."""
        friend = await self._account(username)
        if not await asyncio.to_thread(self.store.is_friend, account.id, friend.id):
            raise ServiceError("not_friend", "add them to your friends first", 403)
        if self.blocked is not None and await self.blocked(friend.id, account.id):
            raise ServiceError("blocked", "they do not take invitations from you", 403)
        table = await self.tables.table(table_id)
        if not any(s.account_id == account.id for s in table.seats):
            raise ServiceError("forbidden", "take a seat at the table to invite someone", 403)
        seat = table.seat_index(seat_text)
        if table.status != "waiting" or table.seats[seat].kind != "open":
            raise ServiceError("seat_taken", "that seat is not open", 409)
        await asyncio.to_thread(self.store.invite, table.id, seat, account.id, friend.id)
        for listener in self.invite_listeners:
            listener(friend.id, table.id, table.cls.info.title, account.username)
        return {"table": table.id, "seat": seat_name(seat), "username": friend.username}

    async def invitations(self, account: AccountRow) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.store.invitations, account.id)
        return [
            {
                "table": i.table_id,
                "game": i.game,
                "players": i.players,
                "seat": seat_name(i.seat),
                "from": i.sender,
                "at": i.created_at.isoformat(),
            }
            for i in rows
        ]

    async def rematch(self, account: AccountRow, table_id: str) -> LiveTable:
        """Play again, for an account seated at the finished table: a new table seating the
        same people (and bots), rated if it was; asked twice, the same new table."""
        table = await self.tables.table(table_id)
        mine = next((s for s in table.seats if s.account_id == account.id and s.token_salt), None)
        if mine is None or mine.token_salt is None:
            raise ServiceError("forbidden", "you have no seat at that table", 403)
        token = seats.seat_token(account.seat_key, mine.token_salt)
        return await self.tables.play_again(table.id, token)
