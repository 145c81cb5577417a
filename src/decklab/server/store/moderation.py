"""The queries of moderation: table creators, mutes and blocks, reports, bans, chat lines
deleted by hand. Each method is one transaction; the service runs them off the loop."""

from __future__ import annotations

import datetime as _dt
from typing import Any

from sqlalchemy import Engine, delete, select, update
from sqlalchemy.orm import Session, sessionmaker

from decklab.server.store.models import (
    AccountRow,
    AddressBanRow,
    ApiTokenRow,
    ChatRow,
    ModerationClockRow,
    MuteRow,
    ReportRow,
    SeatRow,
    SessionRow,
    TableCreatorRow,
    TableRow,
    utcnow,
)


def _tick(db: Session) -> None:
    """The moderation clock goes up (in the change's own transaction): every process
    reads it to learn that its bans and mutes in memory are out of date."""
    done = db.execute(
        update(ModerationClockRow)
        .where(ModerationClockRow.id == 1)
        .values(version=ModerationClockRow.version + 1)
    )
    if not getattr(done, "rowcount", 0):
        db.add(ModerationClockRow(id=1, version=1))


class ModerationStore:
    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # ------------------------------------------------------------ creators
    def set_creator(self, table_id: str, token_hash: str, account_id: int | None) -> None:
        with self.sessions.begin() as db:
            db.add(TableCreatorRow(table_id=table_id, token_hash=token_hash, account_id=account_id))

    def creator(self, table_id: str) -> TableCreatorRow | None:
        with self.sessions() as db:
            return db.get(TableCreatorRow, table_id)

    # ------------------------------------------------------------ mutes and blocks
    def account_id(self, username_key: str) -> int | None:
        with self.sessions() as db:
            found = db.scalar(select(AccountRow.id).where(AccountRow.username_key == username_key))
            return None if found is None else int(found)

    def mute(self, account_id: int, other_id: int, block: bool) -> None:
        """Mute (or block) ``other_id``; a block stays a block when muted again."""
        with self.sessions.begin() as db:
            row = db.get(MuteRow, (account_id, other_id))
            if row is None:
                db.add(MuteRow(account_id=account_id, other_id=other_id, block=block))
            elif block:
                row.block = True
            _tick(db)

    def unmute(self, account_id: int, other_id: int, block_only: bool) -> None:
        """Unmute (the block goes too), or only unblock (still muted)."""
        with self.sessions.begin() as db:
            row = db.get(MuteRow, (account_id, other_id))
            if row is None:
                return
            if block_only:
                row.block = False
            else:
                db.delete(row)
            _tick(db)

    def mutes(self) -> dict[int, set[int]]:
        """Every account's muted accounts (blocks included)."""
        out: dict[int, set[int]] = {}
        with self.sessions() as db:
            for account_id, other_id in db.execute(select(MuteRow.account_id, MuteRow.other_id)):
                out.setdefault(int(account_id), set()).add(int(other_id))
        return out

    def listed(self, account_id: int) -> list[tuple[str, bool]]:
        """The account's muted accounts (username, blocked), by name."""
        with self.sessions() as db:
            rows = db.execute(
                select(AccountRow.username, MuteRow.block)
                .join(MuteRow, MuteRow.other_id == AccountRow.id)
                .where(MuteRow.account_id == account_id)
                .order_by(AccountRow.username_key)
            ).all()
            return [(str(name), bool(block)) for name, block in rows]

    def blocks(self, account_id: int, other_id: int) -> bool:
        """Whether ``account_id`` blocks ``other_id``."""
        with self.sessions() as db:
            row = db.get(MuteRow, (account_id, other_id))
            return row is not None and row.block

    # ------------------------------------------------------------ reports
    def chat_of(self, table_id: str) -> list[dict[str, Any]]:
        """The table's chat lines as stored now (what a report keeps)."""
        with self.sessions() as db:
            rows = db.scalars(
                select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id)
            ).all()
            return [
                {
                    "id": r.id,
                    "seat": r.seat,
                    "nickname": r.nickname,
                    "text": r.text,
                    "at": r.created_at.isoformat(),
                }
                for r in rows
            ]

    def add_report(self, row: ReportRow) -> int:
        with self.sessions.begin() as db:
            db.add(row)
            db.flush()
            return int(row.id)

    def reports(self, open_only: bool) -> list[ReportRow]:
        with self.sessions() as db:
            query = select(ReportRow).order_by(ReportRow.id)
            if open_only:
                query = query.where(ReportRow.resolved_at.is_(None))
            return list(db.scalars(query).all())

    def resolve(self, report_id: int) -> bool:
        with self.sessions.begin() as db:
            row = db.get(ReportRow, report_id)
            if row is None:
                return False
            if row.resolved_at is None:
                row.resolved_at = utcnow()
            return True

    # ------------------------------------------------------------ bans
    def ban_account(self, username_key: str, banned: bool) -> int | None:
        """Ban or unban an account; its id, None if no such one.

        A ban revokes every session, API token and creator token of the account in the
        same transaction
        (revoked, not merely refused while banned: an unban gives none of them back). Its
        seats are the servers' to hand over (:meth:`banned_tables`): they hold the tables.
        """
        with self.sessions.begin() as db:
            account = db.scalar(select(AccountRow).where(AccountRow.username_key == username_key))
            if account is None:
                return None
            now = utcnow()
            account.banned_at = now if banned else None
            if banned:
                db.execute(
                    update(SessionRow)
                    .where(SessionRow.account_id == account.id, SessionRow.revoked_at.is_(None))
                    .values(revoked_at=now)
                )
                db.execute(
                    update(ApiTokenRow)
                    .where(ApiTokenRow.account_id == account.id, ApiTokenRow.revoked_at.is_(None))
                    .values(revoked_at=now)
                )
                db.execute(  # its creator tokens too: no hash is the empty string's
                    update(TableCreatorRow)
                    .where(TableCreatorRow.account_id == account.id)
                    .values(token_hash="")
                )
            _tick(db)
            return int(account.id)

    def clock(self) -> int:
        """The moderation clock (0 before any change): one primary-key read."""
        with self.sessions() as db:
            found = db.scalar(select(ModerationClockRow.version).where(ModerationClockRow.id == 1))
            return 0 if found is None else int(found)

    def banned_accounts(self) -> frozenset[int]:
        with self.sessions() as db:
            return frozenset(
                int(i)
                for i in db.scalars(select(AccountRow.id).where(AccountRow.banned_at.is_not(None)))
            )

    def is_banned(self, account_id: int) -> bool:
        """Whether the account is banned now (read from the database, not a cache)."""
        with self.sessions() as db:
            found = db.scalar(select(AccountRow.banned_at).where(AccountRow.id == account_id))
            return found is not None

    def banned_tables(self, account_ids: frozenset[int]) -> list[tuple[str, int]]:
        """(table, account) for each seat of these accounts that a token still opens at
        a table not finished: the seats to hand over to bots."""
        if not account_ids:
            return []
        with self.sessions() as db:
            rows = db.execute(
                select(SeatRow.table_id, SeatRow.account_id)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(
                    SeatRow.account_id.in_(sorted(account_ids)),
                    SeatRow.token_hash.is_not(None),
                    TableRow.status.in_(("waiting", "playing")),
                )
                .distinct()
            ).all()
            return [(str(t), int(a or 0)) for t, a in rows]

    def ban_address(self, address: str, banned: bool) -> bool:
        """Ban or unban an address; False when that changed nothing."""
        with self.sessions.begin() as db:
            row = db.get(AddressBanRow, address)
            if banned and row is None:
                db.add(AddressBanRow(address=address))
                _tick(db)
                return True
            if not banned and row is not None:
                db.delete(row)
                _tick(db)
                return True
            return False

    def banned_addresses(self) -> frozenset[str]:
        with self.sessions() as db:
            return frozenset(db.scalars(select(AddressBanRow.address)).all())

    # ------------------------------------------------------------ chat
    def delete_chat(self, table_id: str, line: int | None) -> int:
        """A table's chat lines (or one of them) deleted; how many."""
        with self.sessions.begin() as db:
            query = delete(ChatRow).where(ChatRow.table_id == table_id)
            if line is not None:
                query = query.where(ChatRow.id == line)
            gone = db.execute(query)
            return int(getattr(gone, "rowcount", 0) or 0)


def when(value: _dt.datetime | None) -> str | None:
    return None if value is None else value.isoformat()
