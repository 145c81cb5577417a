"""The hub: who follows which table, and what each of them is sent.

A listener follows one table as one viewer (a seat, or a spectator). Publishing an
event keeps it for reconnects and queues each listener its own frame, built once
per viewer from what that viewer may know (:mod:`.frames`) and written as text once
per viewer for the connections that take text; with other processes sharing the
tables (:mod:`.coordination`) they are told the new version. Catching up gives a
returning listener the events it missed, or one ``sync`` frame.

The hub never changes a table's game or seats: :mod:`.service` commits the change
first, then publishes it here.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from decklab.engine.state import Viewer, seat_name
from decklab.server import frames
from decklab.server.coordination import Coordinator
from decklab.server.logline import Entry
from decklab.server.table import ChatMessage, Event, Table

QUEUE_FRAMES = 1024
"""Frames a listener may have waiting; past that it is marked ``overflowed`` (its
connection is closed and it must catch up) rather than the server holding more."""


@dataclass(frozen=True)
class Encoded:
    """A frame already written as text (:func:`frames.encode`), with what a writer
    needs to know of it without reading it again."""

    text: str
    type: str
    version: int | None


@dataclass
class Listener:
    """A connection (or a test) following a table as one viewer; frames go to ``queue``.

    An ``encoded`` listener (a WebSocket) is handed the table's frames as
    :class:`Encoded` text, made once per viewer and event however many
    connections share the viewer: the frame's dicts are dropped as soon as it is
    written out instead of living in every queue until a writer gets to it (the
    garbage collector walked them again and again on a busy server). Frames the
    connection itself queues (acks, errors) stay dicts."""

    viewer: Viewer
    queue: asyncio.Queue[dict[str, Any] | Encoded]
    overflowed: bool = False
    encoded: bool = False


def encode_frame(frame: dict[str, Any]) -> Encoded:
    """``frame`` written as text once, for every text listener of its viewer."""
    version = frame.get("version")
    return Encoded(
        frames.encode(frame), str(frame.get("type")), version if isinstance(version, int) else None
    )


# ------------------------------------------------------------ what a viewer is sent
def table_part(table: Table, viewer: Viewer) -> dict[str, Any]:
    """Everything public about the table plus the game as ``viewer`` sees it."""
    acting = viewer is None or not table.seats[viewer].played_by_bot
    part = frames.game_part(
        table.state, viewer, acting=acting and table.status == "playing", views=table.views()
    )
    if table.finished and part["to_act"] and table.outcome is not None:
        part = frames.ended_early(part, table.outcome)
    return {
        "table": table.id,
        "game": table.cls.info.name,
        "version": table.version,
        "status": table.status,
        "seat": seat_name(viewer) if viewer is not None else None,
        "seats": table.public_seats(),
        "clock": table.clocks_part(table.ticks()),
        "turn": table.turn_part(),
        "outcome": table.outcome,
        "next": table.next_id,
        "can_undo": table.can_undo(viewer),
        **part,
    }


def sync_frame(table: Table, viewer: Viewer, kind: str = "sync") -> dict[str, Any]:
    return {
        "type": "sync",
        "kind": kind,
        "table": table.id,
        "version": table.version,
        "log": frames.log_for(table.state, table.entries, viewer),
        "chat": table.chat_for(viewer),
        "state": table_part(table, viewer),
    }


def event_frame(
    table: Table, event: Event, viewer: Viewer, *, with_state: bool = True
) -> dict[str, Any]:
    return {
        "type": "event",
        "table": table.id,
        "version": event.version,
        "kind": event.kind,
        "detail": event.detail,
        "log": frames.log_for(table.state, event.entries, viewer),
        "state": table_part(table, viewer) if with_state else None,
    }


def catch_up(table: Table, viewer: Viewer, last_version: int | None) -> list[dict[str, Any]]:
    """The events after ``last_version`` if still kept (the newest with the state),
    else one full ``sync`` frame."""
    if last_version is not None and last_version == table.version:
        return [sync_frame(table, viewer, kind="current")]
    kept = [e for e in table.events if last_version is not None and e.version > last_version]
    if (
        last_version is not None
        and 0 < last_version < table.version
        and kept
        and kept[0].version == last_version + 1
    ):
        out = [event_frame(table, e, viewer, with_state=False) for e in kept]
        out[-1] = event_frame(table, kept[-1], viewer, with_state=True)
        return out
    return [sync_frame(table, viewer)]


class Hub:
    """Every listener of this process's tables, and the sending of their frames."""

    def __init__(self, coordinator: Coordinator, events_kept: int) -> None:
        self.coordinator = coordinator
        self.events_kept = events_kept
        """Events a table keeps for reconnects (older ones are caught up with a sync)."""
        self.listeners: dict[int, Listener] = {}
        self._next_listener = 0
        self._announcing: set[asyncio.Task[None]] = set()
        self.on_finish: list[Callable[[Table], None]] = []
        """Told each table of this process that finishes (the bot API's ``gameFinish``)."""

    def subscribe(
        self,
        table: Table,
        viewer: Viewer,
        last_version: int | None = None,
        *,
        encoded: bool = False,
    ) -> tuple[int, Listener]:
        """Follow ``table`` as ``viewer``; the first frames (missed events or a sync) are
        queued. ``encoded``: the table's frames come as text (:class:`Listener`)."""
        listener = Listener(viewer, asyncio.Queue(maxsize=QUEUE_FRAMES), encoded=encoded)
        key = self._next_listener
        self._next_listener += 1
        self.listeners[key] = listener
        table.listeners.add(key)
        for frame in catch_up(table, viewer, last_version):
            listener.queue.put_nowait(encode_frame(frame) if encoded else frame)
        return key, listener

    def demote(self, table: Table, seat: int) -> None:
        """The connections following ``table`` as ``seat`` follow it as spectators now
        (its person was removed: the seat's view is no longer theirs)."""
        for key in table.listeners:
            listener = self.listeners.get(key)
            if listener is not None and listener.viewer == seat:
                listener.viewer = None

    def unsubscribe(self, table: Table, key: int) -> None:
        table.listeners.discard(key)
        table.touched = time.monotonic()
        self.listeners.pop(key, None)

    def publish(
        self, table: Table, kind: str, detail: dict[str, Any], entries: tuple[Entry, ...] = ()
    ) -> None:
        """The table's new version (committed): kept as an event, sent to every
        listener, and told to the other processes."""
        event = Event(table.version, kind, detail, entries)
        table.touched = time.monotonic()
        table.events.append(event)
        while len(table.events) > self.events_kept:
            table.events.popleft()
        self.send_all(table, lambda viewer: event_frame(table, event, viewer))
        if kind == "end":
            self._finished(table)
        if self.coordinator.shared:
            task = asyncio.create_task(
                self.coordinator.announce(table.id, "version", {"version": table.version})
            )
            self._announcing.add(task)
            task.add_done_callback(self._announcing.discard)

    def notice(self, table: Table, kind: str, detail: dict[str, Any]) -> None:
        """A second notice about the same version (the game started, the game ended)."""
        self.send_all(
            table,
            lambda _v: {
                "type": "notice",
                "table": table.id,
                "version": table.version,
                "kind": kind,
                "detail": detail,
            },
        )
        if kind == "end":
            self._finished(table)

    def _finished(self, table: Table) -> None:
        for told in list(self.on_finish):
            told(table)

    def presence(self, table: Table) -> None:
        seats = table.public_seats()
        self.send_all(table, lambda _v: {"type": "presence", "table": table.id, "seats": seats})

    async def say(self, table: Table, message: ChatMessage) -> None:
        """A chat line taken here: to every listener, and to the other processes."""
        self.send_all(
            table, lambda viewer: None if table.hides(viewer, message.seat) else message.to_json()
        )
        if self.coordinator.shared:
            await self.coordinator.announce(table.id, "chat", message.to_json())

    def send_all(self, table: Table, build: Callable[[Viewer], dict[str, Any] | None]) -> None:
        """Queue ``build(viewer)`` to every listener: built once per viewer, and written
        as text once per viewer for the listeners that take text (None: nothing sent to
        that viewer, e.g. a chat line it muted)."""
        made: dict[Viewer, dict[str, Any] | None] = {}
        texts: dict[Viewer, Encoded] = {}
        for key in list(table.listeners):
            listener = self.listeners.get(key)
            if listener is None:
                continue
            viewer = listener.viewer
            if viewer in made:
                frame = made[viewer]
            else:
                frame = made[viewer] = build(viewer)
            if frame is None:
                continue
            item: dict[str, Any] | Encoded = frame
            if listener.encoded:
                item = texts.get(viewer) or texts.setdefault(viewer, encode_frame(frame))
            try:
                listener.queue.put_nowait(item)
            except asyncio.QueueFull:
                listener.overflowed = True
