"""Sharing tables between server processes.

With one process (SQLite, or a single PostgreSQL process) there is nothing to
share: :class:`LocalCoordinator` drives every table. With several processes on
one PostgreSQL database (:mod:`.pg_coordination`), a table is *driven* — its bots
and clocks run — by the one process that holds its advisory lock, any process
may accept an intent (the version check in the same transaction as the write
keeps them from both committing the same version), and every change is
announced with NOTIFY so that the other processes reload the table and tell
their own connections at once.

A coordinator knows the service only as a :class:`TableHost`, the few things it
asks of it: the service imports this module to hold a coordinator, so this one
naming the service would make the two a circle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Versioned(Protocol):
    """A table as a coordinator sees it: its version, to tell the other processes."""

    @property
    def version(self) -> int: ...


class TableIds(Protocol):
    """The store as a coordinator sees it: which tables are still being played."""

    def playing(self) -> list[str]: ...


class TableHost(Protocol):
    """What a coordinator asks of the service whose tables it shares
    (:class:`decklab.server.service.TableService` is one)."""

    @property
    def tables(self) -> Mapping[str, Versioned]:
        """The tables this process holds in memory, by id."""

    @property
    def store(self) -> TableIds: ...

    async def refresh(self, table_id: str) -> None:
        """Another process changed the table: catch it up and tell its listeners."""

    def remote_chat(self, table_id: str, message: dict[str, Any]) -> None:
        """Another process took a chat message for the table: tell its listeners."""

    async def adopt(self, table_id: str) -> None:
        """This process just claimed the table: load it and set its bots and clocks going."""


class Coordinator:
    """One process: it drives every table, and nobody else needs telling."""

    shared = False

    async def start(self, service: TableHost) -> None:
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
