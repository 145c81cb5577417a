"""The queries of personal API tokens and bot accounts, each one transaction.

Apart from :mod:`decklab.server.store.accounts` (sessions, passkeys) so that the bot
API's storage reads in one place; nothing here is on a move's path.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from sqlalchemy import Engine, func, select, update
from sqlalchemy.orm import sessionmaker

from decklab.server.store.models import AccountRow, ApiTokenRow, SeatRow, TableRow, utcnow

USED_EVERY = _dt.timedelta(minutes=5)
"""A token's ``last_used_at`` is written at most this often (not at every request)."""


@dataclass(frozen=True)
class HeldSeat:
    """A seat an account holds at a table not finished: what a ``seated`` event says."""

    table_id: str
    seat: int
    game: str
    status: str


def _aware(when: _dt.datetime) -> _dt.datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=_dt.UTC)


class BotTokenStore:
    """Synchronous queries; the routes run them off the event loop."""

    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def add(self, account_id: int, token_hash: str, label: str) -> ApiTokenRow:
        with self.sessions.begin() as db:
            row = ApiTokenRow(account_id=account_id, token_hash=token_hash, label=label)
            db.add(row)
            db.flush()
            return row

    def of(self, account_id: int) -> list[ApiTokenRow]:
        """The account's tokens not revoked, oldest first."""
        with self.sessions() as db:
            return list(
                db.scalars(
                    select(ApiTokenRow)
                    .where(ApiTokenRow.account_id == account_id, ApiTokenRow.revoked_at.is_(None))
                    .order_by(ApiTokenRow.id)
                )
            )

    def revoke(self, account_id: int, token_id: int) -> bool:
        """The account's token revoked; False if it has no such live token."""
        with self.sessions.begin() as db:
            done = db.execute(
                update(ApiTokenRow)
                .where(
                    ApiTokenRow.id == token_id,
                    ApiTokenRow.account_id == account_id,
                    ApiTokenRow.revoked_at.is_(None),
                )
                .values(revoked_at=utcnow())
            )
            return bool(getattr(done, "rowcount", 0))

    def account_of(self, token_hash: str) -> AccountRow | None:
        """The account of a live token, noting that it was used; or the banned account of
        a revoked one, so that its program is told it is banned rather than that its
        token is unknown (the caller refuses a banned account). None: unknown, revoked
        (account not banned), or its account deleted."""
        with self.sessions.begin() as db:
            token = db.scalar(select(ApiTokenRow).where(ApiTokenRow.token_hash == token_hash))
            if token is None:
                return None
            if token.revoked_at is not None:
                account = db.get(AccountRow, token.account_id)
                return account if account is not None and account.banned_at else None
            now = utcnow()
            if token.last_used_at is None or now - _aware(token.last_used_at) > USED_EVERY:
                token.last_used_at = now
            return db.get(AccountRow, token.account_id)

    def make_bot(self, account_id: int) -> bool:
        """The account becomes a bot account, unless it has ever held a seat (a person's
        games stay a person's); False then. Upgrading a bot again changes nothing."""
        with self.sessions.begin() as db:
            seats = db.scalar(
                select(func.count()).select_from(SeatRow).where(SeatRow.account_id == account_id)
            )
            account = db.get(AccountRow, account_id)
            if account is None:
                return False
            if account.bot:
                return True
            if seats:
                return False
            account.bot = True
            return True

    def held_seats(self, account_id: int) -> list[HeldSeat]:
        """The account's seats at tables not finished (nor expired), newest first."""
        with self.sessions() as db:
            rows = db.execute(
                select(SeatRow.table_id, SeatRow.seat, TableRow.game, TableRow.status)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(
                    SeatRow.account_id == account_id,
                    TableRow.status.in_(("waiting", "playing")),
                )
                .order_by(TableRow.updated_at.desc())
                .limit(500)
            )
            return [HeldSeat(t, s, g, st) for t, s, g, st in rows]
