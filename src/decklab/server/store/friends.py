"""The queries of friends lists and invitations, each one transaction."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from sqlalchemy import Engine, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased, sessionmaker

from decklab.server.store.models import AccountRow, FriendRow, InvitationRow, TableRow


@dataclass(frozen=True)
class Invitation:
    table_id: str
    game: str
    players: int
    seat: int
    sender: str
    created_at: _dt.datetime


class FriendStore:
    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def friends(self, account_id: int) -> list[tuple[str, _dt.datetime]]:
        """The account's friends (username, since when), by name."""
        with self.sessions() as db:
            rows = db.execute(
                select(AccountRow.username, FriendRow.created_at)
                .join(FriendRow, FriendRow.friend_id == AccountRow.id)
                .where(FriendRow.account_id == account_id)
                .order_by(AccountRow.username_key)
            ).all()
            return [(name, when) for name, when in rows]

    def add(self, account_id: int, friend_id: int) -> bool:
        """False if they were a friend already."""
        try:
            with self.sessions.begin() as db:
                db.add(FriendRow(account_id=account_id, friend_id=friend_id))
            return True
        except IntegrityError:
            return False

    def remove(self, account_id: int, friend_id: int) -> bool:
        with self.sessions.begin() as db:
            done = db.execute(
                delete(FriendRow).where(
                    FriendRow.account_id == account_id, FriendRow.friend_id == friend_id
                )
            )
            return bool(getattr(done, "rowcount", 0))

    def is_friend(self, account_id: int, friend_id: int) -> bool:
        with self.sessions() as db:
            return db.get(FriendRow, (account_id, friend_id)) is not None

    def invite(self, table_id: str, seat: int, from_id: int, to_id: int) -> None:
        """The seat kept for ``to_id`` (a new invitation replaces one for the same seat)."""
        with self.sessions.begin() as db:
            db.execute(
                delete(InvitationRow).where(
                    InvitationRow.table_id == table_id, InvitationRow.seat == seat
                )
            )
            db.add(InvitationRow(table_id=table_id, seat=seat, from_id=from_id, to_id=to_id))

    def invited(self, table_id: str, seat: int) -> int | None:
        """The account a seat is kept for (None: nobody)."""
        with self.sessions() as db:
            row = db.get(InvitationRow, (table_id, seat))
            return None if row is None else row.to_id

    def drop(self, table_id: str, seat: int) -> None:
        with self.sessions.begin() as db:
            db.execute(
                delete(InvitationRow).where(
                    InvitationRow.table_id == table_id, InvitationRow.seat == seat
                )
            )

    def invitations(self, account_id: int) -> list[Invitation]:
        """Invitations to the account at tables still waiting for players, newest first."""
        sender = aliased(AccountRow)
        with self.sessions() as db:
            rows = db.execute(
                select(InvitationRow, TableRow, sender.username)
                .join(TableRow, TableRow.id == InvitationRow.table_id)
                .join(sender, sender.id == InvitationRow.from_id)
                .where(InvitationRow.to_id == account_id, TableRow.status == "waiting")
                .order_by(InvitationRow.created_at.desc())
                .limit(100)
            ).all()
            return [
                Invitation(i.table_id, t.game, t.num_players, i.seat, name, i.created_at)
                for i, t, name in rows
            ]
