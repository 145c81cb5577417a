"""The seating rules: who may take a seat, the same at every door.

A seat is taken through five doors: a person's join in the browser, the bot API's join,
quick play's matching, a table's creator naming a bot account as a seat, and a claim
of a guest's seats into an account. Each asks :meth:`Seating.check_seat` before the
seat changes hands, and a refusal is a :class:`~decklab.server.errors.ServiceError`
with its own code:

- ``banned`` (403): a banned account takes no seat (its ``banned_at``, read from the
  database at the check, so a ban that just landed counts);
- ``account_needed`` (403): a rated table seats accounts only;
- ``name_taken`` (409): a guest may not sit under an account's username, nor as
  "deleted player" (the name a deleted account's seats carry);
- ``deleted_account`` (409): a deleted account's seat belongs to nobody: its old seat
  token claims nothing (it would let one account hold two seats of a rated table);
- ``seat_kept`` (409): a seat kept for an invited account is that account's alone;
- ``already_seated`` (409): one seat per account at a rated table, and one per bot
  account at any table (a person may play two seats of a casual table, as at a board);
- ``blocked`` (403): a block stands between the joiner and the table's creator or
  anyone seated there, either way (who blocks does not want the other at their table;
  who is blocked is not seated with them by a stranger's door either). A guest is
  refused where a block falls on an account that took a seat from the same device
  cookie, or from the same address in the last :data:`ADDRESS_DAYS` days.

The join's check runs under the table's lock (``TableService.join``'s ``check``), so
two requests of one account cannot both pass it for one rated table.

What cannot be enforced: a blocked person on a device they never took a seat from as
that account (or whose cookies were cleared) and on an address that account has not
used lately is a stranger, as on any site that lets guests play.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
from dataclasses import dataclass

from decklab.server.accounts.names import name_key
from decklab.server.errors import ServiceError
from decklab.server.store.accounts import DELETED_PLAYER
from decklab.server.store.models import utcnow
from decklab.server.store.seating import SeatingStore
from decklab.server.table import Table, clean_nickname
from decklab.server.tokens import hash_token

DEVICE_COOKIE = "decklab_device"
"""A random token set (HttpOnly, SameSite=Lax) when an account takes a seat in a browser:
only its SHA-256 is kept, against the account."""
DEVICE_MAX_AGE_S = 400 * 86400
"""The longest a browser keeps a cookie (Chromium caps any cookie at 400 days)."""
ADDRESS_DAYS = 7
"""How long an account's address refuses a guest at its blockers' tables: long enough
for "blocked, logged out, back as a guest", short enough that an address handed on to
someone else (a phone's, a café's) is soon free of it."""
DEVICES_KEPT = 10
"""The device cookies kept per account (its latest)."""


@dataclass(frozen=True)
class Joiner:
    """Who takes the seat: an account, or a guest (its nickname, and its device cookie
    and address where known, which link it to the accounts seen there)."""

    account_id: int | None = None
    nickname: str | None = None
    device: str | None = None
    address: str | None = None


@dataclass(frozen=True)
class Place:
    """Where: the table (None: one being made), whether it is rated, its creator's
    account, the accounts holding its other seats; the open seat being taken (None: a
    table being made, or a seat already held, as at a claim); and whether that held seat
    was a deleted account's."""

    table_id: str | None
    rated: bool
    creator_id: int | None
    seated: frozenset[int]
    open_seat: int | None = None
    deleted_seat: bool = False


def device_digest(device: str | None) -> str | None:
    return hash_token(device) if device else None


def address_digest(address: str | None) -> str | None:
    return hash_token("address:" + address) if address else None


class Seating:
    """The rules above, over :class:`~decklab.server.store.seating.SeatingStore`."""

    def __init__(self, store: SeatingStore) -> None:
        self.store = store

    async def place(self, table: Table, seat: int | None, *, open_seat: bool = True) -> Place:
        """``table`` as the rules see it, for ``seat`` (the one being taken, when
        ``open_seat``; else one held, as at a claim)."""
        creator = await asyncio.to_thread(self.store.creator, table.id)
        held = table.seats[seat] if seat is not None else None
        return Place(
            table.id,
            table.rated,
            creator,
            frozenset(
                s.account_id
                for i, s in enumerate(table.seats)
                if i != seat and s.account_id is not None
            ),
            open_seat=seat if open_seat else None,
            deleted_seat=held is not None and not open_seat and held.nickname == DELETED_PLAYER,
        )

    async def stored_place(self, table_id: str, seat: int, nickname: str | None) -> Place | None:
        """A held seat of a table as the database has it (a claim of a table no process
        holds in memory); None: no such table."""
        found = await asyncio.to_thread(self.store.seats, table_id)
        if found is None:
            return None
        rated, accounts = found
        creator = await asyncio.to_thread(self.store.creator, table_id)
        return Place(
            table_id,
            rated,
            creator,
            frozenset(a for s, a in accounts.items() if s != seat and a is not None),
            deleted_seat=nickname == DELETED_PLAYER,
        )

    async def check_at(self, joiner: Joiner, table: Table, seat: int) -> None:
        """:meth:`check_seat` for the open ``seat`` of ``table`` (the join's ``check``)."""
        await self.check_seat(joiner, await self.place(table, seat))

    async def check_seat(self, joiner: Joiner, place: Place, *, by_creator: bool = False) -> None:
        """Refuse the seat if a rule says no (the module's list). ``by_creator``: the
        table's creator seats the joiner (a bot account named as a seat), which changes
        only the wording: the one told is the creator."""
        if joiner.account_id is not None:
            await self._check_account(joiner.account_id, place, by_creator)
        else:
            await self._check_guest(joiner, place)

    async def _check_account(self, account_id: int, place: Place, by_creator: bool) -> None:
        account = await asyncio.to_thread(self.store.account, account_id)
        if account is None:
            raise ServiceError("unauthorized", "that account no longer exists", 401)
        if account.banned_at is not None:
            who = account.username if by_creator else "this account"
            raise ServiceError("banned", f"{who} is banned: it takes no seat", 403)
        self._check_deleted(place)
        await self._check_kept(place, account_id)
        if account_id in place.seated and (place.rated or account.bot):
            raise ServiceError(
                "already_seated",
                "a bot account takes one seat of a table"
                if account.bot
                else "you already have a seat at this rated table",
                409,
            )
        others = set(place.seated)
        if place.creator_id is not None:
            others.add(place.creator_id)
        others.discard(account_id)
        blocks = await asyncio.to_thread(self.store.blocks, account_id, others)
        if not blocks:
            return
        if by_creator:
            raise ServiceError(
                "blocked",
                f"{account.username} cannot be seated here: a block stands between that "
                "account and you or another account seated",
                403,
            )
        blockers = {blocker for blocker, _ in blocks if blocker != account_id}
        if place.creator_id in blockers:
            raise ServiceError("blocked", "the table's creator does not take you at a table", 403)
        if blockers:
            raise ServiceError("blocked", "someone at this table does not take you at a table", 403)
        raise ServiceError(
            "blocked", "you block someone at this table: unblock them to sit with them", 403
        )

    async def _check_guest(self, joiner: Joiner, place: Place) -> None:
        if place.rated:
            raise ServiceError("account_needed", "log in to take a seat at a rated table", 403)
        if joiner.nickname is not None:
            key = name_key(clean_nickname(joiner.nickname))
            if key == name_key(DELETED_PLAYER):
                raise ServiceError("name_taken", f"{DELETED_PLAYER!r} is not a nickname", 409)
            if await asyncio.to_thread(self.store.is_account_name, key):
                raise ServiceError(
                    "name_taken", "that nickname is an account's username: log in to use it", 409
                )
        self._check_deleted(place)
        await self._check_kept(place, None)
        others = set(place.seated)
        if place.creator_id is not None:
            others.add(place.creator_id)
        if not others:
            return
        since = utcnow() - _dt.timedelta(days=ADDRESS_DAYS)
        device, address = device_digest(joiner.device), address_digest(joiner.address)
        linked = await asyncio.to_thread(self.store.known, device, address, since)
        if not linked:
            return
        if await asyncio.to_thread(self.store.blocks_any, others, linked):
            raise ServiceError(
                "blocked",
                "someone at this table has blocked an account that took a seat from this "
                "device or address",
                403,
            )

    @staticmethod
    def _check_deleted(place: Place) -> None:
        if place.deleted_seat:
            raise ServiceError(
                "deleted_account", "that seat was a deleted account's: nobody can claim it", 409
            )

    async def _check_kept(self, place: Place, account_id: int | None) -> None:
        if place.table_id is None or place.open_seat is None:
            return
        kept_for = await asyncio.to_thread(self.store.kept_for, place.table_id, place.open_seat)
        if kept_for is not None and kept_for != account_id:
            raise ServiceError("seat_kept", "this seat is kept for an invited player", 409)

    async def taken(self, table_id: str, seat: int, joiner: Joiner) -> None:
        """After a seat changed hands: its invitation ends, and an account's device and
        address are remembered (what refuses it, logged out, at its blockers' tables)."""
        await asyncio.to_thread(self.store.drop_invitation, table_id, seat)
        if joiner.account_id is None:
            return
        device, address = device_digest(joiner.device), address_digest(joiner.address)
        if device is None and address is None:
            return
        await asyncio.to_thread(
            self.store.remember,
            joiner.account_id,
            device,
            address,
            utcnow() - _dt.timedelta(days=ADDRESS_DAYS),
            DEVICES_KEPT,
        )
