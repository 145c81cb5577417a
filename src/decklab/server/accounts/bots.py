"""Bot accounts and personal API tokens: what the bot API (``/api/bot/...``) stands on.

As on Lichess, a program plays with an account's personal API token
(``Authorization: Bearer …``): the token is random, shown once when it is made, and
only its SHA-256 is kept, so a stolen database holds no usable token. An account that
is upgraded to a *bot account* plays only through this API (never as a person in the
browser) and shows as a bot wherever its seats are listed.

A bot account's seat is an account's seat like a person's (:mod:`.seats`): its seat
token is derived from the account's key, so the bot API acts through the table
service's ordinary seat-token path, and the seat's frames are the very ``sync`` and
``event`` frames a person's browser gets for that seat (:mod:`decklab.server.hub`):
the seat's view and legal moves, nothing more.

Events (``seated``, ``gameFinish``) reach a bot's open event streams in this process;
a stream that opens is first told every seat the account holds at a table not
finished, so a program that reconnects (or whose table another server process
created) misses none.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from decklab.engine.state import seat_name
from decklab.server.accounts import seats
from decklab.server.accounts.service import AccountService
from decklab.server.errors import ServiceError
from decklab.server.seating import Joiner
from decklab.server.service import LiveTable, TableService
from decklab.server.store.bot_tokens import BotTokenStore
from decklab.server.store.models import AccountRow, ApiTokenRow
from decklab.server.table import SeatAccount, Table
from decklab.server.tokens import hash_token

log = logging.getLogger("decklab.server.bots")

TOKEN_PREFIX = "dlb_"
"""Marks a decklab API token in logs and secret scanners (as Lichess's ``lip_``)."""
EVENTS_QUEUED = 256
"""Events a stream may have waiting; past that the stream ends and must reopen."""


def new_api_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_json(row: ApiTokenRow) -> dict[str, Any]:
    """A token as listed: never the token, never its hash."""
    return {
        "id": row.id,
        "label": row.label,
        "created_at": row.created_at.isoformat(),
        "last_used_at": row.last_used_at.isoformat() if row.last_used_at else None,
    }


class BotEvents:
    """The open event streams of this process, per account, and what they are told."""

    def __init__(self) -> None:
        self.streams: dict[int, set[asyncio.Queue[dict[str, Any] | None]]] = {}

    def open(self, account_id: int) -> asyncio.Queue[dict[str, Any] | None]:
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=EVENTS_QUEUED)
        self.streams.setdefault(account_id, set()).add(queue)
        return queue

    def close(self, account_id: int, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
        held = self.streams.get(account_id)
        if held is not None:
            held.discard(queue)
            if not held:
                del self.streams[account_id]

    def tell(self, account_id: int, event: dict[str, Any]) -> None:
        for queue in list(self.streams.get(account_id, ())):
            try:
                queue.put_nowait(event)
            except asyncio.QueueFull:  # a stream that does not read: ended, to reopen
                queue.get_nowait()
                queue.put_nowait(None)

    def end(self, account_id: int) -> None:
        """The account's open streams end now (it was banned): each is told to stop."""
        for queue in list(self.streams.get(account_id, ())):
            while queue.full():
                queue.get_nowait()
            queue.put_nowait(None)

    def table_finished(self, table: Table) -> None:
        """The hub's ``on_finish``: each bot account seated here hears ``gameFinish``."""
        for index, seat in enumerate(table.seats):
            if seat.bot_account and seat.account_id is not None:
                self.tell(
                    seat.account_id,
                    {
                        "type": "gameFinish",
                        "table": table.id,
                        "seat": seat_name(index),
                        "outcome": table.outcome,
                    },
                )


def seated_event(table_id: str, seat: int, game: str, status: str) -> dict[str, Any]:
    return {
        "type": "seated",
        "table": table_id,
        "seat": seat_name(seat),
        "game": game,
        "status": status,
    }


class BotService:
    """Tokens, the bot upgrade, and a bot account's seats. No transport: routes call it."""

    def __init__(self, store: BotTokenStore, accounts: AccountService) -> None:
        self.store = store
        self.accounts = accounts
        self.tables: TableService = accounts.tables
        self.events = BotEvents()
        self.tables.hub.on_finish.append(self.events.table_finished)

    # ------------------------------------------------------------ tokens
    async def create_token(
        self, account: AccountRow, label: str, most: int
    ) -> tuple[ApiTokenRow, str]:
        """A new token (returned once; only its hash is kept)."""
        label = label.strip()
        if not 1 <= len(label) <= 64:
            raise ServiceError("bad_request", "a token's label is 1 to 64 characters")
        if len(await asyncio.to_thread(self.store.of, account.id)) >= most:
            raise ServiceError("too_many", f"at most {most} API tokens: revoke one first", 409)
        token = new_api_token()
        row = await asyncio.to_thread(self.store.add, account.id, hash_token(token), label)
        log.info("api token created", extra={"account": account.id})
        return row, token

    async def tokens(self, account: AccountRow) -> list[dict[str, Any]]:
        return [token_json(row) for row in await asyncio.to_thread(self.store.of, account.id)]

    async def revoke(self, account: AccountRow, token_id: int) -> None:
        if not await asyncio.to_thread(self.store.revoke, account.id, token_id):
            raise ServiceError("not_found", "no such API token", 404)

    async def bearer(self, token: str | None) -> AccountRow | None:
        """The account an API token logs in (None: none, revoked, or account deleted);
        a banned account's token is refused (403 ``banned``), before and after its ban
        revoked it, and stays revoked when the ban is lifted."""
        if not token or len(token) > 200:
            return None
        account = await asyncio.to_thread(self.store.account_of, hash_token(token))
        if account is not None and account.banned_at is not None:
            raise ServiceError("banned", "this account is banned", 403)
        return account

    # ------------------------------------------------------------ bot accounts
    async def upgrade(self, account: AccountRow) -> None:
        """The account becomes a bot account for good, if it never held a seat (as on
        Lichess, where an account that has played cannot become a bot)."""
        if not await asyncio.to_thread(self.store.make_bot, account.id):
            raise ServiceError(
                "has_played",
                "an account that has held a seat cannot become a bot account: make a new one",
                409,
            )
        account.bot = True
        log.info("account upgraded to a bot", extra={"account": account.id})

    async def account_seat(self, name: str) -> tuple[SeatAccount, int]:
        """A seat for the bot account ``name`` at a table being made (its derived token's
        hash and salt), and its account id; anything but a bot account is refused."""
        account = await self.accounts.is_account_name(name.strip())
        if account is None or not account.bot:
            raise ServiceError("bad_request", f"{name!r} is not a bot account")
        token, salt = AccountService.new_seat(account)
        return SeatAccount(account.id, account.username, hash_token(token), salt), account.id

    def announce_seats(self, table: LiveTable) -> None:
        """Tell every bot account seated at a new table (``seated``)."""
        for index, seat in enumerate(table.seats):
            if seat.bot_account and seat.account_id is not None:
                event = seated_event(table.id, index, table.cls.info.name, table.status)
                self.events.tell(seat.account_id, event)

    async def held(self, account: AccountRow) -> list[dict[str, Any]]:
        """``seated`` for every seat the account holds at a table not finished."""
        rows = await asyncio.to_thread(self.store.held_seats, account.id)
        return [seated_event(r.table_id, r.seat, r.game, r.status) for r in rows]

    async def join(
        self, account: AccountRow, table_id: str, seat_text: str, address: str | None = None
    ) -> int:
        """The bot account takes an open seat itself, through the same seating rules as a
        person's join (:mod:`decklab.server.seating`: kept seats, blocks, bans, one seat
        per bot account per table)."""
        seating = self.accounts.seating
        joiner = Joiner(account.id, address=address)
        token, salt = AccountService.new_seat(account)
        seat, _ = await self.tables.join(
            table_id,
            seat_text,
            account.username,
            token=token,
            account=(account.id, salt),
            bot_account=True,
            check=lambda table, seat: seating.check_at(joiner, table, seat),
        )
        await seating.taken(table_id, seat, joiner)
        table = await self.tables.table(table_id)
        self.events.tell(
            account.id, seated_event(table.id, seat, table.cls.info.name, table.status)
        )
        return seat

    async def seat_at(self, account: AccountRow, table_id: str) -> tuple[LiveTable, int, str]:
        """The table, the seat the bot account holds there and that seat's token (derived
        again from the account's key); refused if it holds none."""
        table = await self.tables.table(table_id)
        for index, seat in enumerate(table.seats):
            if seat.account_id == account.id and seat.token_salt:
                token = seats.seat_token(account.seat_key, seat.token_salt)
                if await self.tables.viewer_of(table, token) == index:
                    return table, index, token
        raise ServiceError("forbidden", "this bot account holds no seat at this table", 403)
