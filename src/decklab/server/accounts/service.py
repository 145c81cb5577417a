"""The accounts' service: sign up, log in and out, passwords, sessions, a person's games,
claiming a guest's seats, export and deletion. No transport: the routes call it.

Every refusal is a :class:`ServiceError` (one error shape); hashing runs off the loop.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from decklab.engine.state import seat_name
from decklab.server.accounts import password_policy, passwords, seats
from decklab.server.accounts.hashing import HashPool
from decklab.server.accounts.names import check_username, name_key
from decklab.server.accounts.sessions import new_session_token
from decklab.server.errors import ServiceError
from decklab.server.limits import PasswordCheck
from decklab.server.seating import Joiner, Place, Seating
from decklab.server.service import LiveTable, TableService
from decklab.server.store.accounts import DELETED_PLAYER, AccountStore, NameTaken
from decklab.server.store.models import AccountRow
from decklab.server.store.seating import SeatingStore
from decklab.server.tokens import hash_token

log = logging.getLogger("decklab.server.accounts")

ACTIVE = ("waiting", "playing")
MAX_CLAIMS = 200
"""Seats one claim may carry over (a guest's browser keeps one token per table)."""


def _bad_login() -> ServiceError:
    # One message for an unknown name and a wrong password: it tells nobody which names exist.
    return ServiceError("bad_login", "wrong username or password", 401)


def raise_bot_account() -> None:
    """A bot account tried to play as a person (in the browser)."""
    raise ServiceError(
        "bot_account", "a bot account plays through the bot API (/api/bot/...), not here", 403
    )


@dataclass(frozen=True)
class Caller:
    """A request authenticated by a session cookie: the account and the session's token."""

    account: AccountRow
    token: str


class AccountService:
    def __init__(self, store: AccountStore, tables: TableService) -> None:
        self.store = store
        self.tables = tables
        self.seating = Seating(SeatingStore(store.engine))
        """The seating rules every door asks (:mod:`decklab.server.seating`)."""
        settings = tables.settings
        self.hashing = HashPool(settings.hash_workers, settings.hash_queue)
        """Every argon2 hash and verification runs here, never on the loop's default
        threads, which the database calls need (:mod:`.hashing`)."""

    def password_refusal(self, password: str, username: str) -> str | None:
        """Why a new password is refused (:mod:`.password_policy`), None if it is fine."""
        sites = password_policy.site_names(self.tables.settings.public_urls)
        return password_policy.refusal(password, username, sites)

    async def _verify(self, stored: str | None, password: str, check: PasswordCheck | None) -> bool:
        good = await self.hashing.run(passwords.verify, stored, password)
        if check is not None:
            check.verdict(good)
        return good

    # ------------------------------------------------------------ signing up, logging in
    async def signup(self, username: str, password: str) -> tuple[AccountRow, str]:
        """A new account and a session for it."""
        username = username.strip()
        why = check_username(username) or self.password_refusal(password, username)
        if why:
            raise ServiceError("bad_request", why)
        password_hash = await self.hashing.run(passwords.hash_password, password)
        row = AccountRow(
            username=username,
            username_key=name_key(username),
            password_hash=password_hash,
            seat_key=seats.new_key(),
            webauthn_user_id=secrets.token_bytes(32),
        )
        try:
            account = await asyncio.to_thread(self.store.create, row)
        except NameTaken:
            raise ServiceError("name_taken", "that username is taken", 409) from None
        log.info("account created", extra={"account": account.id})
        return account, await self.open_session(account, "password")

    async def login(
        self, username: str, password: str, check: PasswordCheck | None = None
    ) -> tuple[AccountRow, str]:
        # a name no account can have is looked up nowhere (the hash is still checked, so
        # the answer takes as long as for any unknown name)
        possible = check_username(username.strip()) is None
        account = (
            await asyncio.to_thread(self.store.by_name, name_key(username)) if possible else None
        )
        stored = account.password_hash if account is not None else None
        good = await self._verify(stored, password, check) and account is not None
        if account is None or not good:
            raise _bad_login()
        return account, await self.open_session(account, "password")

    async def open_session(self, account: AccountRow, how: str) -> str:
        if account.banned_at is not None:
            raise ServiceError("banned", "this account is banned", 403)
        token = new_session_token()
        await asyncio.to_thread(self.store.add_session, account.id, hash_token(token), how)
        return token

    async def caller(self, token: str | None) -> Caller | None:
        """The account a session cookie's token logs in (None: none, revoked, deleted)."""
        if not token or len(token) > 100:
            return None
        account = await asyncio.to_thread(self.store.session_account, hash_token(token))
        return None if account is None else Caller(account, token)

    async def logout(self, caller: Caller) -> None:
        await asyncio.to_thread(self.store.revoke, hash_token(caller.token))

    async def logout_everywhere(self, caller: Caller) -> int:
        """Every session of the account revoked, this one too."""
        return await asyncio.to_thread(self.store.revoke_all, caller.account.id)

    async def change_password(
        self, caller: Caller, current: str, new: str, check: PasswordCheck | None = None
    ) -> None:
        """A new password, once the current one is given (a passkey-only account has none
        to give); every other session is logged out, as after a password change anywhere."""
        stored = caller.account.password_hash
        if stored is not None and not await self._verify(stored, current, check):
            raise ServiceError("bad_login", "the current password is wrong", 401)
        why = self.password_refusal(new, caller.account.username)
        if why:
            raise ServiceError("bad_request", why)
        new_hash = await self.hashing.run(passwords.hash_password, new)
        await asyncio.to_thread(self.store.set_password, caller.account.id, new_hash)
        await asyncio.to_thread(self.store.revoke_all, caller.account.id, hash_token(caller.token))

    # ------------------------------------------------------------ names and seats
    async def is_account_name(self, nickname: str) -> AccountRow | None:
        """The account whose username this is, in any case (guests may not take it)."""
        return await asyncio.to_thread(self.store.by_name, name_key(nickname))

    @staticmethod
    def new_seat(account: AccountRow) -> tuple[str, str]:
        """A token and salt for a seat the account is taking."""
        salt = seats.new_salt()
        return seats.seat_token(account.seat_key, salt), salt

    async def my_games(self, account: AccountRow) -> dict[str, list[dict[str, Any]]]:
        """The account's tables: active ones (whose turn it is) and finished ones, each
        with the seat's token, so that any device of the account can play it."""
        active: list[dict[str, Any]] = []
        finished: list[dict[str, Any]] = []
        for seat in await asyncio.to_thread(self.store.seats_of, account.id):
            entry: dict[str, Any] = {
                "table": seat.table_id,
                "game": seat.game,
                "seat": seat_name(seat.seat),
                "players": seat.num_players,
                "status": seat.status,
                # A bot account plays through the bot API only: no seat token for a page.
                "token": seats.seat_token(account.seat_key, seat.token_salt)
                if seat.token_salt and not account.bot
                else None,
                "updated_at": seat.updated_at.isoformat(),
            }
            if seat.status in ACTIVE:
                to_move: list[str] = []
                deadline: str | None = None
                turn: dict[str, Any] | None = None
                try:
                    table = await self.tables.table(seat.table_id)
                    if table.status == "playing" and not table.finished:
                        to_move = [seat_name(s) for s in table.state.to_act()]
                    turn = table.turn
                    if table.deadlines is not None:
                        deadline = table.deadlines.public().get(seat_name(seat.seat))
                except ServiceError:
                    pass
                entry |= {
                    "to_move": to_move,
                    "your_turn": seat_name(seat.seat) in to_move,
                    "clock": seat.clock,
                    # a turn-based table: its time per move, and this seat's deadline
                    "turn": turn,
                    "deadline": deadline,
                }
                active.append(entry)
            else:
                entry["outcome"] = seat.outcome
                finished.append(entry)
        # your turn first, the nearest deadline first among those (ISO times sort as text)
        active.sort(key=lambda e: (not e["your_turn"], e["deadline"] is None, e["deadline"] or ""))
        return {"active": active, "finished": finished}

    async def claim(
        self, account: AccountRow, claims: list[tuple[str, str]]
    ) -> list[dict[str, str]]:
        """A guest's seats (table, token) carried into the account: each gets a token
        derived from the account's key (returned; the guest's stops working) and the
        account's name. A token that holds no guest seat is passed over, and so is a seat
        the seating rules refuse the account (:mod:`decklab.server.seating`: a deleted
        account's old seat, a second seat of a rated table, a block): it stays the
        guest's."""
        if account.bot:
            raise_bot_account()
        if len(claims) > MAX_CLAIMS:
            raise ServiceError("bad_request", f"at most {MAX_CLAIMS} seats in one claim")
        done: list[dict[str, str]] = []
        for table_id, token in claims:
            live = self.tables.tables.get(table_id)
            if live is None:
                claimed = await self._claim_one(account, table_id, token, None)
            else:  # under the table's lock, as a join: the seats read stay as read
                async with live.lock:
                    claimed = await self._claim_one(account, table_id, token, live)
            if claimed is not None:
                done.append(claimed)
        return done

    async def _claim_one(
        self, account: AccountRow, table_id: str, token: str, live: LiveTable | None
    ) -> dict[str, str] | None:
        old_hash = hash_token(token)
        row = await asyncio.to_thread(self.store.guest_seat, table_id, old_hash)
        if row is None:
            return None
        place: Place | None
        if live is not None:
            place = await self.seating.place(live, row.seat, open_seat=False)
        else:
            place = await self.seating.stored_place(table_id, row.seat, row.nickname)
        if place is None:
            return None
        try:
            await self.seating.check_seat(Joiner(account.id), place)
        except ServiceError as refused:
            log.info("claim refused: %s", refused.code, extra={"account": account.id})
            return None
        new_token, salt = self.new_seat(account)
        new_hash = hash_token(new_token)
        bound = await asyncio.to_thread(
            self.store.claim_seat,
            table_id,
            row.seat,
            old_hash,
            new_hash,
            account.id,
            salt,
            account.username,
        )
        if not bound:
            return None
        if live is not None:  # the table in memory takes the new token and name
            held = live.seats[row.seat]
            held.token_hash, held.nickname = new_hash, account.username
            held.account_id, held.token_salt = account.id, salt
        return {"table": table_id, "seat": seat_name(row.seat), "token": new_token}

    # ------------------------------------------------------------ export, deletion
    async def export(self, account: AccountRow) -> dict[str, Any]:
        return await asyncio.to_thread(self.store.export, account.id)

    async def delete(
        self,
        caller: Caller,
        password: str | None,
        confirm: str,
        check: PasswordCheck | None = None,
    ) -> None:
        """The account deleted, once its password (or, without one, its username) is given.
        Its seats stay in their games as "deleted player"; its chat lines go."""
        account = caller.account
        if name_key(confirm) != account.username_key:
            raise ServiceError("bad_request", "type your username to confirm")
        if account.password_hash is not None and not await self._verify(
            account.password_hash, password or "", check
        ):
            raise ServiceError("bad_login", "the password is wrong", 401)
        renamed = await asyncio.to_thread(self.store.delete, account.id)
        for table_id, index in renamed:
            live = self.tables.tables.get(table_id)
            if live is None:
                continue
            held = live.seats[index]
            held.nickname, held.account_id, held.token_salt = DELETED_PLAYER, None, None
            live.chat[:] = [m for m in live.chat if m.seat != index]
        log.info("account deleted", extra={"account": account.id})
