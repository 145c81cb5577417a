"""Live play: one WebSocket per connection, in the way Lichess's lila-ws does it.

The first frame a client sends is ``hello`` (its seat token, or none to watch,
and the last version it saw); it then receives the events it missed or a full
``sync``, and from there every event of the table, each carrying the table's
version, built for its own viewer only. Intents name the version they were made
at and a client id (resent: answered, applied once; stale: an error with the
current state). The server pings; a connection that stays silent is closed.
Every connection is rate limited, frames have a maximum size, and a browser
handshake from a foreign ``Origin`` is refused (cross-site WebSocket hijacking).
See docs/server.md for every message with an example.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import DBAPIError
from starlette.websockets import WebSocketState

from decklab.server import metrics, trace
from decklab.server.api.origin import origin_allowed
from decklab.server.errors import ServiceError
from decklab.server.frames import encode
from decklab.server.hub import Encoded, Listener, sync_frame
from decklab.server.limits import Limits, RateLimited
from decklab.server.service import LiveTable, TableService

log = logging.getLogger("decklab.server.live")
router = APIRouter()

CLOSE_POLICY = 4403
CLOSE_FLOOD = 4429
CLOSE_SILENT = 4408
CLOSE_BEHIND = 4409


def error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    metrics.errored(code)
    return {"type": "error", "code": code, "message": message, **extra}


class Connection:
    """One WebSocket following one table as one viewer."""

    def __init__(
        self, ws: WebSocket, service: TableService, table: LiveTable, limits: Limits, address: str
    ) -> None:
        self.ws = ws
        self.service = service
        self.settings = service.settings
        self.table = table
        self.limits = limits
        self.address = address
        self.viewer: int | None = None
        self.listener: Listener | None = None
        self.key: int | None = None
        self.times: deque[float] = deque()
        self.last_heard = time.monotonic()

    def push(self, frame: dict[str, Any]) -> None:
        """Queue a frame behind the table's events, so an ack never overtakes its event."""
        assert self.listener is not None
        try:
            self.listener.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.listener.overflowed = True

    async def writer(self) -> None:
        assert self.listener is not None
        while True:
            frame = await self.listener.queue.get()
            if self.listener.overflowed:
                await self.ws.close(CLOSE_BEHIND, "too far behind: reconnect for a sync")
                return
            if isinstance(frame, Encoded):  # the table's frames, written once per viewer
                await self.ws.send_text(frame.text)
                kind, version = frame.type, frame.version
            else:  # this connection's own (acks, errors, pongs)
                await self.ws.send_text(encode(frame))
                kind, version = frame["type"], frame.get("version")
            if trace.enabled and kind in ("event", "ack") and isinstance(version, int):
                trace.mark(self.table.id, version, f"sent_{kind}")

    async def heartbeat(self) -> None:
        beat = self.settings.heartbeat_s
        while True:
            await asyncio.sleep(beat)
            if time.monotonic() - self.last_heard > 2 * beat:
                await self.ws.close(CLOSE_SILENT, "no answer to pings")
                return
            self.push({"type": "ping", "at": time.time()})

    @property
    def seat_key(self) -> tuple[str, int] | None:
        """The key of this connection's seat in the per-seat limits (None: a spectator)."""
        return None if self.viewer is None else (self.table.id, self.viewer)

    def flooding(self) -> bool:
        now = time.monotonic()
        window = self.settings.message_window_s
        while self.times and now - self.times[0] > window:
            self.times.popleft()
        self.times.append(now)
        return len(self.times) > self.settings.messages_per_window

    async def handle(self, raw: str) -> None:
        """One client frame: parsed, checked, dispatched; bad input gets an error frame."""
        try:
            message = parse(raw)
        except ServiceError as exc:
            self.push(error(exc.code, exc.message))
            return
        kind = message["type"]
        client_id = message.get("client_id")
        echo = (
            {"client_id": client_id} if isinstance(client_id, str) and len(client_id) <= 64 else {}
        )
        try:
            if kind == "ping":
                self.push({"type": "pong", "at": time.time()})
            elif kind == "pong":
                pass
            elif kind == "intent":
                action, version = message.get("action"), message.get("version")
                if not isinstance(action, str) or len(action) > 200:
                    raise ServiceError("bad_frame", "an intent has an 'action' text")
                if not isinstance(version, int) or isinstance(version, bool):
                    raise ServiceError("bad_frame", "an intent names the 'version' it was made at")
                if not echo:
                    raise ServiceError(
                        "bad_frame", "an intent has a 'client_id' of 1 to 64 characters"
                    )
                trace.mark(self.table.id, version + 1, "received")
                acked = await self.service.act(
                    self.table.id, self._token, action, version, echo["client_id"]
                )
                self.push({"type": "ack", "version": acked, **echo})
            elif kind == "chat":
                text = message.get("text")
                if not isinstance(text, str):
                    raise ServiceError("bad_frame", "a chat frame has a 'text'")
                await self.service.chat(self.table.id, self._token, text)
            elif kind == "undo":
                version = message.get("version")
                if not isinstance(version, int) or isinstance(version, bool):
                    raise ServiceError("bad_frame", "undo names the 'version' it was asked at")
                acked = await self.service.undo(self.table.id, self._token, version)
                self.push({"type": "ack", "version": acked, **echo})
            elif kind == "reclaim":
                acked = await self.service.reclaim(self.table.id, self._token)
                self.push({"type": "ack", "version": acked, **echo})
            elif kind == "hint":
                self.limits.hint(self.address, self.seat_key)
                got = await self.service.hint(self.table.id, self._token, address=self.address)
                self.push({"type": "hint", **got, "version": int(got["version"]), **echo})
            elif kind == "hello":
                raise ServiceError("bad_frame", "hello is sent once, first")
            else:
                raise ServiceError("bad_frame", f"unknown frame type {kind[:32]!r}")
        except DBAPIError:  # the database is locked or gone: nothing changed, try again
            self.push(error("unavailable", "the database is unavailable: try again", **echo))
        except ServiceError as exc:
            extra: dict[str, Any] = dict(echo)
            if isinstance(exc, RateLimited):
                extra["retry_after_s"] = exc.retry_after
            if exc.code == "stale":
                table = await self.service.table(self.table.id)
                extra["sync"] = sync_frame(table, self.viewer)
            self.push(error(exc.code, exc.message, **extra))

    _token: str | None = None


@router.websocket("/api/tables/{table_id}/live")
async def live(ws: WebSocket, table_id: str) -> None:
    service: TableService = ws.app.state.service
    if not origin_allowed(ws):
        log.warning("websocket refused: foreign origin", extra={"table": table_id})
        await ws.close(CLOSE_POLICY)
        return
    try:
        await ws.accept()
        await _session(ws, service, ws.app.state.limits, table_id)
    except (WebSocketDisconnect, OSError):
        # The client went away mid-way (during the handshake, or between its hello and
        # our welcome): its own business, not the server's error.
        log.debug("websocket closed by the client", extra={"table": table_id})
    except RuntimeError:
        if WebSocketState.DISCONNECTED not in (ws.client_state, ws.application_state):
            raise  # not a closed socket: a bug, to be seen
        log.debug("websocket closed during a send", extra={"table": table_id})


async def _refuse(ws: WebSocket, frame: dict[str, Any], code: int) -> None:
    await ws.send_text(encode(frame))
    await _close_quietly(ws, code)


def _limited(exc: RateLimited) -> dict[str, Any]:
    return error(exc.code, exc.message, retry_after_s=exc.retry_after)


async def _session(ws: WebSocket, service: TableService, limits: Limits, table_id: str) -> None:
    """One connection from accept to close. Everything it takes (its address's and its
    seat's connection slots, its subscription, its seat's presence, its tasks) is taken
    inside one ``try`` and given back in its ``finally``, whichever way it ends: a
    client that vanishes right after its hello leaves nothing behind."""
    settings = service.settings
    address = ws.client.host if ws.client is not None else "unknown"
    if not limits.address_connections.acquire(address):
        await _refuse(
            ws,
            error("rate_limited", "too many connections from this address", retry_after_s=10),
            CLOSE_FLOOD,
        )
        return
    seat_slot: tuple[str, int] | None = None
    table: LiveTable | None = None
    key: int | None = None
    viewer: int | None = None
    counted = False
    tasks: list[asyncio.Task[None]] = []
    try:
        try:
            table = await service.table(table_id)
        except ServiceError as exc:
            await _refuse(ws, error(exc.code, exc.message), CLOSE_POLICY)
            return
        try:
            hello = await asyncio.wait_for(ws.receive_text(), settings.hello_timeout_s)
        except (TimeoutError, KeyError):
            await _close_quietly(ws, CLOSE_POLICY)
            return
        try:
            limits.message(address, None)
            if len(hello) > settings.max_frame_bytes:
                raise ServiceError("too_large", "frame too large")
            first = parse(hello)
            if first.get("type") != "hello":
                raise ServiceError("bad_frame", 'the first frame is {"type": "hello", …}')
            token = first.get("token")
            last = first.get("last_version")
            if token is not None and not isinstance(token, str):
                raise ServiceError("bad_frame", "token is text")
            if last is not None and (not isinstance(last, int) or isinstance(last, bool)):
                raise ServiceError("bad_frame", "last_version is a whole number")
            viewer = await service.viewer_of(table, token)
        except RateLimited as exc:
            await _refuse(ws, _limited(exc), CLOSE_FLOOD)
            return
        except ServiceError as exc:
            await _refuse(ws, error(exc.code, exc.message), CLOSE_POLICY)
            return
        if viewer is not None:
            if not limits.seat_connections.acquire((table.id, viewer)):
                message = "too many connections of this seat: close one"
                frame = error("rate_limited", message, retry_after_s=10)
                await _refuse(ws, frame, CLOSE_FLOOD)
                return
            seat_slot = (table.id, viewer)
        table = await service.table(table_id)
        conn = Connection(ws, service, table, limits, address)
        conn._token, conn.viewer = token, viewer
        key, conn.listener = service.hub.subscribe(table, viewer, last, encoded=True)
        conn.key = key
        await ws.send_text(
            encode(
                {
                    "type": "welcome",
                    "table": table.id,
                    "seat": None if viewer is None else f"p{viewer + 1}",
                    "version": table.version,
                    "heartbeat_s": settings.heartbeat_s,
                    "process": service.process_id,
                }
            )
        )
        counted = True  # connected() counts the seat's connection before its first await
        await service.connected(table, viewer)
        writer = asyncio.create_task(conn.writer())
        beat = asyncio.create_task(conn.heartbeat())
        tasks += [writer, beat]
        await _serve(ws, conn, writer, beat)
    finally:
        for task in tasks:
            task.cancel()
            if task.done() and not task.cancelled():
                task.exception()  # seen here: a dead socket's send is no unhandled error
        if key is not None and table is not None:
            service.hub.unsubscribe(table, key)
        if counted:
            service.disconnected(await service.table(table_id), viewer)
        if seat_slot is not None:
            limits.seat_connections.release(seat_slot)
        limits.address_connections.release(address)


async def _serve(
    ws: WebSocket, conn: Connection, writer: asyncio.Task[None], beat: asyncio.Task[None]
) -> None:
    """The client's frames until it leaves, floods, or a task of ours ends the socket."""
    settings = conn.settings
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            incoming = await ws.receive()
            if incoming["type"] == "websocket.disconnect":
                break
            conn.last_heard = time.monotonic()
            if conn.flooding():
                if len(conn.times) > 2 * settings.messages_per_window:
                    await ws.close(CLOSE_FLOOD, "flooding")
                    break
                conn.push(error("rate_limited", "too many messages: slow down"))
                continue
            try:
                conn.limits.message(conn.address, conn.seat_key)
            except RateLimited as exc:
                conn.push(_limited(exc))
                continue
            text = incoming.get("text")
            if text is None:
                conn.push(error("bad_frame", "text frames only"))
                continue
            if len(text.encode("utf-8", "surrogatepass")) > settings.max_frame_bytes:
                conn.push(
                    error("too_large", f"a frame is at most {settings.max_frame_bytes} bytes")
                )
                continue
            await conn.handle(text)
            if writer.done() or beat.done():
                break


def parse(raw: str) -> dict[str, Any]:
    """A client's frame as a JSON object, or :class:`ServiceError` ``bad_frame``.

    Hostile text gets the same clean error as a typo: nesting deep enough to exhaust
    the parser's recursion, and escaped lone surrogates (``"\\ud800"``), which are
    valid JSON but no text: they would fail later, when stored, logged or echoed."""
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        raise ServiceError("bad_frame", "a frame is one JSON object") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ServiceError("bad_frame", 'a frame is a JSON object with a "type"')
    if not _all_text(message):
        raise ServiceError("bad_frame", "text in a frame is Unicode: no lone surrogates")
    return message


def _all_text(value: Any) -> bool:
    """Whether every string in ``value`` (keys too) encodes as UTF-8; iterative, since a
    frame may nest as deep as its size allows."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return True


async def _close_quietly(ws: WebSocket, code: int) -> None:
    with contextlib.suppress(RuntimeError):
        await ws.close(code)
