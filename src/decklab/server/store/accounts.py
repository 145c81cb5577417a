"""The queries of accounts, sessions and passkeys, each one transaction.

Kept apart from :mod:`decklab.server.store.queries` (the tables' queries): nothing here
is on a move's path, and the table service never calls it.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from decklab.server.store.models import (
    AccountRow,
    ApiTokenRow,
    ChallengeRow,
    ChatRow,
    FriendRow,
    InvitationRow,
    KnownDeviceRow,
    OutboxRow,
    PasskeyRow,
    RatingHistoryRow,
    RatingRow,
    SeatRow,
    SessionRow,
    SoloResultRow,
    TableRow,
    utcnow,
)

DELETED_PLAYER = "deleted player"
"""What a deleted account's seats are called from then on (finished games keep them)."""
SEEN_EVERY = _dt.timedelta(minutes=5)
"""A session's ``last_seen_at`` is written at most this often (not at every request)."""


class NameTaken(Exception):
    """Another account has this username (in any case)."""


@dataclass(frozen=True)
class AccountSeat:
    """One of an account's seats, with its table's public part."""

    table_id: str
    seat: int
    token_salt: str | None
    game: str
    status: str
    num_players: int
    outcome: dict[str, Any] | None
    clock: dict[str, Any] | None
    updated_at: _dt.datetime


def _aware(when: _dt.datetime) -> _dt.datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=_dt.UTC)


class AccountStore:
    """Synchronous queries; the routes run them off the event loop."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # ------------------------------------------------------------ accounts
    def create(self, row: AccountRow) -> AccountRow:
        try:
            with self.sessions.begin() as db:
                db.add(row)
                db.flush()
                return row
        except IntegrityError:
            raise NameTaken(row.username) from None

    def get(self, account_id: int) -> AccountRow | None:
        with self.sessions() as db:
            return db.get(AccountRow, account_id)

    def by_name(self, username_key: str) -> AccountRow | None:
        with self.sessions() as db:
            return db.scalar(select(AccountRow).where(AccountRow.username_key == username_key))

    def by_webauthn_user(self, user_id: bytes) -> AccountRow | None:
        with self.sessions() as db:
            return db.scalar(select(AccountRow).where(AccountRow.webauthn_user_id == user_id))

    def set_password(self, account_id: int, password_hash: str) -> None:
        with self.sessions.begin() as db:
            db.execute(
                update(AccountRow)
                .where(AccountRow.id == account_id)
                .values(password_hash=password_hash)
            )

    # ------------------------------------------------------------ sessions
    def add_session(self, account_id: int, token_hash: str, how: str) -> None:
        with self.sessions.begin() as db:
            db.add(SessionRow(account_id=account_id, token_hash=token_hash, how=how))

    def session_account(self, token_hash: str) -> AccountRow | None:
        """The account of a live (not revoked) session; notes that it was seen."""
        with self.sessions.begin() as db:
            session = db.scalar(
                select(SessionRow).where(
                    SessionRow.token_hash == token_hash, SessionRow.revoked_at.is_(None)
                )
            )
            if session is None:
                return None
            now = utcnow()
            if now - _aware(session.last_seen_at) > SEEN_EVERY:
                session.last_seen_at = now
            account = db.get(AccountRow, session.account_id)
            return None if account is None or account.banned_at is not None else account

    def revoke(self, token_hash: str) -> None:
        with self.sessions.begin() as db:
            db.execute(
                update(SessionRow)
                .where(SessionRow.token_hash == token_hash, SessionRow.revoked_at.is_(None))
                .values(revoked_at=utcnow())
            )

    def revoke_all(self, account_id: int, keep_hash: str | None = None) -> int:
        """Every live session of the account revoked (but ``keep_hash``'s); how many."""
        with self.sessions.begin() as db:
            query = update(SessionRow).where(
                SessionRow.account_id == account_id, SessionRow.revoked_at.is_(None)
            )
            if keep_hash is not None:
                query = query.where(SessionRow.token_hash != keep_hash)
            done = db.execute(query.values(revoked_at=utcnow()))
            return int(getattr(done, "rowcount", 0) or 0)

    # ------------------------------------------------------------ passkeys
    def add_passkey(self, row: PasskeyRow) -> None:
        with self.sessions.begin() as db:
            db.add(row)

    def passkeys(self, account_id: int) -> list[PasskeyRow]:
        with self.sessions() as db:
            return list(
                db.scalars(
                    select(PasskeyRow)
                    .where(PasskeyRow.account_id == account_id)
                    .order_by(PasskeyRow.created_at)
                )
            )

    def passkey(self, credential_id: str) -> PasskeyRow | None:
        with self.sessions() as db:
            return db.get(PasskeyRow, credential_id)

    def passkey_used(self, credential_id: str, sign_count: int) -> None:
        with self.sessions.begin() as db:
            db.execute(
                update(PasskeyRow)
                .where(PasskeyRow.credential_id == credential_id)
                .values(sign_count=sign_count)
            )

    def put_challenge(self, row: ChallengeRow, max_age: _dt.timedelta) -> None:
        """Keep a ceremony's challenge (and forget the ones older than ``max_age``)."""
        with self.sessions.begin() as db:
            db.execute(delete(ChallengeRow).where(ChallengeRow.created_at < utcnow() - max_age))
            db.add(row)

    def take_challenge(self, challenge_id: str, max_age: _dt.timedelta) -> ChallengeRow | None:
        """A challenge, once (it is deleted as it is read); None if unknown or too old."""
        with self.sessions.begin() as db:
            row = db.get(ChallengeRow, challenge_id)
            if row is None:
                return None
            db.delete(row)
            return row if utcnow() - _aware(row.created_at) <= max_age else None

    # ------------------------------------------------------------ seats
    def seats_of(self, account_id: int) -> list[AccountSeat]:
        """The account's seats, newest table first."""
        with self.sessions() as db:
            rows = db.execute(
                select(SeatRow, TableRow)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.account_id == account_id)
                .order_by(TableRow.updated_at.desc())
                .limit(500)
            )
            return [
                AccountSeat(
                    seat.table_id,
                    seat.seat,
                    seat.token_salt,
                    table.game,
                    table.status,
                    table.num_players,
                    table.outcome,
                    table.clock,
                    table.updated_at,
                )
                for seat, table in rows
            ]

    def guest_seat(self, table_id: str, token_hash: str) -> SeatRow | None:
        """The seat a guest's token holds at a table (None: no such seat, or not a guest's)."""
        with self.sessions() as db:
            return db.scalar(
                select(SeatRow).where(
                    SeatRow.table_id == table_id,
                    SeatRow.token_hash == token_hash,
                    SeatRow.kind == "human",
                    SeatRow.account_id.is_(None),
                )
            )

    def claim_seat(
        self,
        table_id: str,
        seat: int,
        old_hash: str,
        new_hash: str,
        account_id: int,
        salt: str,
        username: str,
    ) -> bool:
        """A guest's seat bound to an account, with a token derived from the account's key
        (the guest's token stops working); its solo result too. False if it changed."""
        with self.sessions.begin() as db:
            done = db.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat == seat,
                    SeatRow.token_hash == old_hash,
                    SeatRow.account_id.is_(None),
                )
                .values(
                    account_id=account_id, token_salt=salt, token_hash=new_hash, nickname=username
                )
            )
            if not getattr(done, "rowcount", 0):
                return False
            if seat == 0:
                db.execute(
                    update(SoloResultRow)
                    .where(SoloResultRow.table_id == table_id, SoloResultRow.account_id.is_(None))
                    .values(account_id=account_id, nickname=username)
                )
            return True

    # ------------------------------------------------------------ export, deletion
    def export(self, account_id: int) -> dict[str, Any]:
        """Everything kept about the account, as plain JSON values (no hash, no key)."""
        with self.sessions() as db:
            account = db.get(AccountRow, account_id)
            if account is None:
                return {}
            sessions = db.scalars(
                select(SessionRow).where(SessionRow.account_id == account_id)
            ).all()
            passkeys = db.scalars(
                select(PasskeyRow).where(PasskeyRow.account_id == account_id)
            ).all()
            seats = db.scalars(select(SeatRow).where(SeatRow.account_id == account_id)).all()
            chat: list[ChatRow] = []
            for seat in seats:
                chat += db.scalars(
                    select(ChatRow).where(
                        ChatRow.table_id == seat.table_id, ChatRow.seat == seat.seat
                    )
                ).all()
            solo = db.scalars(
                select(SoloResultRow).where(SoloResultRow.account_id == account_id)
            ).all()
            tokens = db.scalars(
                select(ApiTokenRow).where(ApiTokenRow.account_id == account_id)
            ).all()
            friends = db.scalars(
                select(AccountRow.username)
                .join(FriendRow, FriendRow.friend_id == AccountRow.id)
                .where(FriendRow.account_id == account_id)
            ).all()
            ratings = db.scalars(select(RatingRow).where(RatingRow.account_id == account_id)).all()
            devices = db.scalars(
                select(KnownDeviceRow).where(KnownDeviceRow.account_id == account_id)
            ).all()
            return {
                "account": {
                    "username": account.username,
                    "created_at": account.created_at.isoformat(),
                    "has_password": account.password_hash is not None,
                    "bot": account.bot,
                    "email": account.email,
                    "email_turn": account.email_turn,
                    "email_invite": account.email_invite,
                },
                "api_tokens": [
                    {
                        "label": t.label,
                        "created_at": t.created_at.isoformat(),
                        "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None,
                        "revoked_at": t.revoked_at.isoformat() if t.revoked_at else None,
                    }
                    for t in tokens
                ],
                "sessions": [
                    {
                        "how": s.how,
                        "created_at": s.created_at.isoformat(),
                        "last_seen_at": s.last_seen_at.isoformat(),
                        "revoked_at": s.revoked_at.isoformat() if s.revoked_at else None,
                    }
                    for s in sessions
                ],
                "passkeys": [
                    {"credential_id": p.credential_id, "created_at": p.created_at.isoformat()}
                    for p in passkeys
                ],
                "seats": [
                    {"table": s.table_id, "seat": s.seat, "nickname": s.nickname} for s in seats
                ],
                "chat": [
                    {
                        "table": c.table_id,
                        "seat": c.seat,
                        "text": c.text,
                        "at": c.created_at.isoformat(),
                    }
                    for c in chat
                ],
                "solo_results": [
                    {
                        "game": r.game,
                        "deal": r.deal,
                        "score": r.score,
                        "perfect": r.perfect,
                        "table": r.table_id,
                        "finished_at": r.finished_at.isoformat(),
                    }
                    for r in solo
                ],
                "friends": sorted(friends),
                "ratings": [
                    {"game": r.game, "mu": r.mu, "sigma": r.sigma, "games": r.games}
                    for r in ratings
                ],
                # only digests are kept: the export says what kind and when
                "known_devices": [
                    {"kind": d.kind, "seen_at": d.seen_at.isoformat()} for d in devices
                ],
            }

    def delete(self, account_id: int) -> list[tuple[str, int]]:
        """The account and its personal data deleted, explicitly (not every database
        enforces the foreign keys' cascade): sessions, passkeys, challenges, API tokens,
        solo results, ratings and their history, friends (both ways), invitations, chat
        lines, the devices and addresses it took seats from. Its seats stay, as :data:`DELETED_PLAYER`, so that finished games stay
        whole. Returns the seats (table, seat) renamed."""
        with self.sessions.begin() as db:
            seats = [
                (s.table_id, s.seat)
                for s in db.scalars(select(SeatRow).where(SeatRow.account_id == account_id))
            ]
            for table_id, seat in seats:
                db.execute(
                    delete(ChatRow).where(ChatRow.table_id == table_id, ChatRow.seat == seat)
                )
            db.execute(
                update(SeatRow)
                .where(SeatRow.account_id == account_id)
                .values(account_id=None, token_salt=None, nickname=DELETED_PLAYER)
            )
            for model in (
                SoloResultRow,
                SessionRow,
                PasskeyRow,
                ChallengeRow,
                ApiTokenRow,
                RatingRow,
                RatingHistoryRow,
                OutboxRow,
                KnownDeviceRow,
            ):
                db.execute(delete(model).where(model.account_id == account_id))
            db.execute(
                delete(FriendRow).where(
                    (FriendRow.account_id == account_id) | (FriendRow.friend_id == account_id)
                )
            )
            db.execute(
                delete(InvitationRow).where(
                    (InvitationRow.from_id == account_id) | (InvitationRow.to_id == account_id)
                )
            )
            db.execute(delete(AccountRow).where(AccountRow.id == account_id))
            return seats
