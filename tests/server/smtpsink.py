"""A local SMTP sink for the notification tests: aiosmtpd's ``Controller`` on a free
loopback port, keeping every mail it is handed."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


class Sink:
    """What the SMTP server received: each mail parsed, with its envelope's recipients."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], EmailMessage]] = []
        self.port = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        self.mails.append((list(envelope.rcpt_tos), parsed))
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for rcpt, m in self.mails if address in rcpt]

    def wait(self, count: int, limit_s: float = 10.0) -> None:
        """Until at least ``count`` mails arrived (for a mailer running on its own)."""
        deadline = time.monotonic() + limit_s
        while len(self.mails) < count and time.monotonic() < deadline:
            time.sleep(0.02)

    def wait_to(self, address: str, limit_s: float = 10.0) -> list[EmailMessage]:
        """The mails to ``address``, once there is at least one (or the limit passed)."""
        deadline = time.monotonic() + limit_s
        while not self.to(address) and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.to(address)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def smtp_sink() -> Iterator[Sink]:
    sink = Sink()
    sink.port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=sink.port)
    controller.start()
    try:
        yield sink
    finally:
        controller.stop()
