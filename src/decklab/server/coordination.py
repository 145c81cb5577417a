"""Sharing tables between server processes.

With one process (SQLite, or a single PostgreSQL process) there is nothing to
share: :class:`LocalCoordinator` drives every table. With several processes on
one PostgreSQL database (:mod:`.pg_coordination`), a table is *driven* — its bots
and clocks run — by the one process that holds its advisory lock, any process
may accept an intent (the version check in the same transaction as the write
keeps them from both committing the same version), and every change is
announced with NOTIFY so that the other processes reload the table and tell
their own connections at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decklab.server.service import TableService


class Coordinator:
    """One process: it drives every table, and nobody else needs telling."""

    shared = False

    async def start(self, service: TableService) -> None:
        self.service = service

    async def claim(self, table_id: str) -> bool:
        return True

    def drives(self, table_id: str) -> bool:
        return True

    async def release(self, table_id: str) -> None:
        """This process let the (finished) table go: it drives it no more."""
        return None

    async def announce(self, table_id: str, kind: str, payload: dict[str, Any]) -> None:
        return None

    async def close(self) -> None:
        return None


LocalCoordinator = Coordinator
