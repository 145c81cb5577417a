"""The notification mail: written from the outbox's texts (public facts only: the game,
the table, whose turn, the deadline; never a card) and handed to an SMTP server with the
standard library, in a thread, so the event loop never waits on the network."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from decklab.server.notify.store import Batch

SMTP_TIMEOUT_S = 30.0


def compose(batch: Batch, sender: str, site: str) -> EmailMessage:
    """One mail for one account's news of one table."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = batch.email
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    first = batch.texts[0]
    more = len(batch.texts) - 1
    message["Subject"] = f"decklab: {first}" + (f" (and {more} more)" if more else "")
    link = f"{site.rstrip('/')}/table/{batch.table_id}" if site else f"/table/{batch.table_id}"
    lines = [f"Hello {batch.username},", "", *(f"- {t}" for t in batch.texts), "", link, ""]
    lines.append("At most one mail per table an hour. Switch these mails off on your account page.")
    message.set_content("\n".join(lines) + "\n")
    return message


def send(host: str, port: int, message: EmailMessage) -> None:
    """Hand one mail to the SMTP server (blocking: run it in a thread)."""
    with smtplib.SMTP(host, port, timeout=SMTP_TIMEOUT_S) as smtp:
        smtp.send_message(message)
