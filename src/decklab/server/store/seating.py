"""The queries the seating rules read (:mod:`decklab.server.seating`), each one
transaction: the account as it is now, the table's creator, a kept seat, the blocks
between a joiner and the people at a table, and the devices and addresses accounts
took seats from.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Collection

from sqlalchemy import Engine, delete, or_, select
from sqlalchemy.orm import sessionmaker

from decklab.server.store.models import (
    AccountRow,
    InvitationRow,
    KnownDeviceRow,
    MuteRow,
    SeatRow,
    TableCreatorRow,
    TableRow,
    utcnow,
)


class SeatingStore:
    """Synchronous queries; the seating rules run them off the event loop."""

    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def account(self, account_id: int) -> AccountRow | None:
        with self.sessions() as db:
            return db.get(AccountRow, account_id)

    def is_account_name(self, username_key: str) -> bool:
        with self.sessions() as db:
            found = db.scalar(select(AccountRow.id).where(AccountRow.username_key == username_key))
            return found is not None

    def creator(self, table_id: str) -> int | None:
        """The account that created the table (None: a guest, or nobody: quick play)."""
        with self.sessions() as db:
            return db.scalar(
                select(TableCreatorRow.account_id).where(TableCreatorRow.table_id == table_id)
            )

    def kept_for(self, table_id: str, seat: int) -> int | None:
        """The account an open seat is kept for (an invitation), if any."""
        with self.sessions() as db:
            return db.scalar(
                select(InvitationRow.to_id).where(
                    InvitationRow.table_id == table_id, InvitationRow.seat == seat
                )
            )

    def drop_invitation(self, table_id: str, seat: int) -> None:
        with self.sessions.begin() as db:
            db.execute(
                delete(InvitationRow).where(
                    InvitationRow.table_id == table_id, InvitationRow.seat == seat
                )
            )

    def seats(self, table_id: str) -> tuple[bool, dict[int, int | None]] | None:
        """A stored table's rated flag and each seat's account (None: no such table)."""
        with self.sessions() as db:
            rated = db.scalar(select(TableRow.rated).where(TableRow.id == table_id))
            if rated is None:
                return None
            rows = db.execute(
                select(SeatRow.seat, SeatRow.account_id).where(SeatRow.table_id == table_id)
            )
            return bool(rated), {seat: account for seat, account in rows}

    def blocks(self, account_id: int, others: Collection[int]) -> list[tuple[int, int]]:
        """The blocks (blocker, blocked) between ``account_id`` and any of ``others``,
        either way."""
        if not others:
            return []
        with self.sessions() as db:
            rows = db.execute(
                select(MuteRow.account_id, MuteRow.other_id).where(
                    MuteRow.block.is_(True),
                    or_(
                        (MuteRow.account_id == account_id) & MuteRow.other_id.in_(others),
                        MuteRow.account_id.in_(others) & (MuteRow.other_id == account_id),
                    ),
                )
            )
            return [(blocker, blocked) for blocker, blocked in rows]

    def blocks_any(self, blockers: Collection[int], blocked: Collection[int]) -> bool:
        """Whether any of ``blockers`` blocks any of ``blocked``."""
        if not blockers or not blocked:
            return False
        with self.sessions() as db:
            found = db.scalar(
                select(MuteRow.account_id)
                .where(
                    MuteRow.block.is_(True),
                    MuteRow.account_id.in_(blockers),
                    MuteRow.other_id.in_(blocked),
                )
                .limit(1)
            )
            return found is not None

    def known(self, device: str | None, address: str | None, since: _dt.datetime) -> set[int]:
        """The accounts that took a seat from this device (ever kept) or this address
        (since ``since``); both are digests."""
        wanted = []
        if device is not None:
            wanted.append((KnownDeviceRow.kind == "device") & (KnownDeviceRow.digest == device))
        if address is not None:
            wanted.append(
                (KnownDeviceRow.kind == "address")
                & (KnownDeviceRow.digest == address)
                & (KnownDeviceRow.seen_at >= since)
            )
        if not wanted:
            return set()
        with self.sessions() as db:
            return set(db.scalars(select(KnownDeviceRow.account_id).where(or_(*wanted))))

    def remember(
        self,
        account_id: int,
        device: str | None,
        address: str | None,
        forget_before: _dt.datetime,
        devices_kept: int,
    ) -> None:
        """Note the device and address (digests) the account took a seat from now; forget
        every address older than ``forget_before`` and the account's devices past its
        ``devices_kept`` latest."""
        now = utcnow()
        with self.sessions.begin() as db:
            for kind, digest in (("device", device), ("address", address)):
                if digest is None:
                    continue
                row = db.get(KnownDeviceRow, (account_id, kind, digest))
                if row is None:
                    db.add(KnownDeviceRow(account_id=account_id, kind=kind, digest=digest))
                else:
                    row.seen_at = now
            db.flush()
            db.execute(
                delete(KnownDeviceRow).where(
                    KnownDeviceRow.kind == "address", KnownDeviceRow.seen_at < forget_before
                )
            )
            kept = select(KnownDeviceRow.digest).where(
                KnownDeviceRow.account_id == account_id, KnownDeviceRow.kind == "device"
            )
            stale = list(
                db.scalars(kept.order_by(KnownDeviceRow.seen_at.desc()).offset(devices_kept))
            )
            if stale:
                db.execute(
                    delete(KnownDeviceRow).where(
                        KnownDeviceRow.account_id == account_id,
                        KnownDeviceRow.kind == "device",
                        KnownDeviceRow.digest.in_(stale),
                    )
                )
