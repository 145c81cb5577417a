"""The notifications' service: what goes into the outbox, the preferences, the mailer.

The table service tells it which seats a turn-based table began to wait for
(:attr:`TableService.turn_listeners`); the friends' service, of each invitation. Each
becomes an outbox row for an account that has an email address and wants that kind;
the mailer sends what is due in one mail per table and account, at most one an hour.
Without an SMTP host nothing is queued or sent. No transport: the routes call it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import smtplib
from typing import Any

from decklab.engine.state import seat_name
from decklab.server import pace
from decklab.server.config import Settings
from decklab.server.errors import ServiceError
from decklab.server.notify import mail
from decklab.server.notify.store import OutboxStore, Prefs
from decklab.server.service import LiveTable, TableService

log = logging.getLogger("decklab.server.notify")

EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,252}\.[^@\s]+$")
"""An address with a local part, an @ and a dotted domain: enough to catch a typo; the
SMTP server is the judge of the rest. No whitespace, so no header can be smuggled in."""


def check_email(text: str | None) -> str | None:
    """The address cleaned (None: none), or a refusal."""
    if text is None or not text.strip():
        return None
    text = text.strip()
    if len(text) > 254 or not EMAIL.match(text):
        raise ServiceError("bad_request", "that is not an email address")
    return text


class Notifier:
    def __init__(self, store: OutboxStore, tables: TableService, settings: Settings) -> None:
        self.store = store
        self.tables = tables
        self.settings = settings
        self.enabled = bool(settings.smtp_host)
        self._queued: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self._mailer: asyncio.Task[None] | None = None
        if self.enabled:
            tables.turn_listeners.append(self.turn)

    # ------------------------------------------------------------ events
    def turn(self, table: LiveTable, seats: list[int]) -> None:
        """Seats a turn-based table now waits for: queue "your turn" for their accounts."""
        title = table.cls.info.title
        for seat in seats:
            account_id = table.seats[seat].account_id
            if account_id is None or table.deadlines is None:
                continue
            due = table.deadlines.due.get(seat)
            until = "" if due is None else f" (until {pace.iso(due)})"
            text = f"Your turn at {title}, table {table.id}, seat {seat_name(seat)}{until}"
            self._queue(account_id, table.id, "turn", text)

    def invited(self, to_id: int, table_id: str, game_title: str, sender: str) -> None:
        """An account was invited to a seat: queue "you were invited" for it."""
        if self.enabled:
            text = f"{sender} invited you to {game_title}, table {table_id}"
            self._queue(to_id, table_id, "invite", text)

    def _queue(self, account_id: int, table_id: str, kind: str, text: str) -> None:
        task = asyncio.create_task(self._add(account_id, table_id, kind, text))
        self._queued.add(task)
        task.add_done_callback(self._queued.discard)

    async def _add(self, account_id: int, table_id: str, kind: str, text: str) -> None:
        try:
            if await asyncio.to_thread(
                self.store.add, account_id, table_id, kind, text, self.tables.wall()
            ):
                self._wake.set()
        except Exception:  # a notification must never break a move
            log.exception("notification not queued", extra={"table": table_id})

    async def settle(self) -> None:
        """Wait until every event told so far is in the outbox (for tests)."""
        while self._queued:
            await asyncio.gather(*list(self._queued))

    # ------------------------------------------------------------ preferences
    async def prefs(self, account_id: int) -> dict[str, Any]:
        found = await asyncio.to_thread(self.store.prefs, account_id)
        if found is None:
            raise ServiceError("not_found", "no such account", 404)
        return {
            "email": found.email,
            "email_turn": found.email_turn,
            "email_invite": found.email_invite,
            "mail_enabled": self.enabled,
        }

    async def set_prefs(self, account_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        """Change the fields given (``email``: "" or null removes it); the others stay."""
        old = await asyncio.to_thread(self.store.prefs, account_id)
        if old is None:
            raise ServiceError("not_found", "no such account", 404)
        email = check_email(changes["email"]) if "email" in changes else old.email
        new = Prefs(
            email,
            bool(changes.get("email_turn", old.email_turn)),
            bool(changes.get("email_invite", old.email_invite)),
        )
        await asyncio.to_thread(self.store.set_prefs, account_id, new)
        return await self.prefs(account_id)

    # ------------------------------------------------------------ the mailer
    def start(self) -> None:
        if self.enabled:
            self._mailer = asyncio.create_task(self._mail_now_and_then())

    async def close(self) -> None:
        if self._mailer is not None:
            self._mailer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._mailer
        with contextlib.suppress(Exception):
            await self.settle()

    async def _mail_now_and_then(self) -> None:
        while True:
            # cleared *before* looking: a mail queued while send_due runs sets it again,
            # and is sent at once rather than after a whole poll period (a lost wake-up)
            self._wake.clear()
            try:
                await self.send_due()
            except Exception:
                log.exception("the mailer failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.mail_poll_s)

    async def send_due(self) -> int:
        """Mail every batch due by the service's wall clock; the number sent."""
        if not self.enabled:
            return 0
        batches = await asyncio.to_thread(
            self.store.claim_due, self.tables.wall(), self.settings.mail_every_s
        )
        site = self.settings.public_urls[0] if self.settings.public_urls else ""
        sent = 0
        for batch in batches:
            message = mail.compose(batch, self.settings.smtp_from, site)
            try:
                await asyncio.to_thread(
                    mail.send, self.settings.smtp_host, self.settings.smtp_port, message
                )
                sent += 1
            except (OSError, smtplib.SMTPException) as exc:
                log.warning("mail not sent: %s", exc, extra={"table": batch.table_id})
                await asyncio.to_thread(self.store.unclaim, batch.ids)
        return sent
