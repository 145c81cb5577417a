"""The outbox's queries and an account's mail preferences, each one transaction.

The mailer claims a batch by marking its rows sent in the same statement that checks
they were not (``sent_at IS NULL``), so two server processes never mail one batch twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.orm import sessionmaker

from decklab.server.store.models import AccountRow, OutboxRow

KINDS = ("turn", "invite")


@dataclass(frozen=True)
class Prefs:
    email: str | None
    email_turn: bool
    email_invite: bool

    def wants(self, kind: str) -> bool:
        return self.email is not None and (self.email_turn if kind == "turn" else self.email_invite)


@dataclass(frozen=True)
class Batch:
    """One mail: the news of one table for one account."""

    ids: tuple[int, ...]
    email: str
    username: str
    table_id: str
    texts: tuple[str, ...]


class OutboxStore:
    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def prefs(self, account_id: int) -> Prefs | None:
        with self.sessions() as db:
            row = db.get(AccountRow, account_id)
            if row is None:
                return None
            return Prefs(row.email, row.email_turn, row.email_invite)

    def set_prefs(self, account_id: int, prefs: Prefs) -> None:
        with self.sessions.begin() as db:
            db.execute(
                update(AccountRow)
                .where(AccountRow.id == account_id)
                .values(
                    email=prefs.email, email_turn=prefs.email_turn, email_invite=prefs.email_invite
                )
            )
            if prefs.email is None:  # nowhere to send it: what waits is dropped
                db.execute(
                    delete(OutboxRow).where(
                        OutboxRow.account_id == account_id, OutboxRow.sent_at.is_(None)
                    )
                )

    def add(self, account_id: int, table_id: str, kind: str, text: str, at: float) -> bool:
        """Queue one notification if the account wants its kind by mail; True if queued."""
        with self.sessions.begin() as db:
            row = db.get(AccountRow, account_id)
            if row is None or not Prefs(row.email, row.email_turn, row.email_invite).wants(kind):
                return False
            db.add(OutboxRow(account_id=account_id, table_id=table_id, kind=kind, text=text, at=at))
            return True

    def claim_due(self, now: float, every_s: float) -> list[Batch]:
        """The batches due by ``now`` (no mail of that table to that account in the last
        ``every_s``), each marked sent; rows of a kind switched off since are dropped."""
        batches: list[Batch] = []
        with self.sessions.begin() as db:
            rows = db.execute(
                select(OutboxRow, AccountRow)
                .join(AccountRow, AccountRow.id == OutboxRow.account_id)
                .where(OutboxRow.sent_at.is_(None))
                .order_by(OutboxRow.id)
            ).all()
            groups: dict[tuple[int, str], list[OutboxRow]] = {}
            unwanted: list[int] = []
            accounts: dict[int, AccountRow] = {}
            for outbox, account in rows:
                accounts[account.id] = account
                prefs = Prefs(account.email, account.email_turn, account.email_invite)
                if not prefs.wants(outbox.kind):
                    unwanted.append(outbox.id)
                    continue
                groups.setdefault((account.id, outbox.table_id), []).append(outbox)
            if unwanted:
                db.execute(delete(OutboxRow).where(OutboxRow.id.in_(unwanted)))
            for (account_id, table_id), items in groups.items():
                last = db.scalar(
                    select(func.max(OutboxRow.sent_at)).where(
                        OutboxRow.account_id == account_id,
                        OutboxRow.table_id == table_id,
                        OutboxRow.sent_at.is_not(None),
                    )
                )
                if last is not None and now - last < every_s:
                    continue  # folded into the next mail
                ids = tuple(o.id for o in items)
                done = db.execute(
                    update(OutboxRow)
                    .where(OutboxRow.id.in_(ids), OutboxRow.sent_at.is_(None))
                    .values(sent_at=now)
                )
                if getattr(done, "rowcount", 0) != len(ids):
                    continue  # another process took them
                account = accounts[account_id]
                assert account.email is not None
                batches.append(
                    Batch(
                        ids, account.email, account.username, table_id, tuple(o.text for o in items)
                    )
                )
            # a sent row matters only for the hour after it (the batching)
            db.execute(
                delete(OutboxRow).where(
                    OutboxRow.sent_at.is_not(None), OutboxRow.sent_at < now - every_s
                )
            )
        return batches

    def unclaim(self, ids: tuple[int, ...]) -> None:
        """A batch the SMTP server refused: it waits for the next round."""
        with self.sessions.begin() as db:
            db.execute(update(OutboxRow).where(OutboxRow.id.in_(ids)).values(sent_at=None))
