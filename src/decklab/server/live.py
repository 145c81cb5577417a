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
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import DBAPIError

from decklab.server import trace
from decklab.server.config import Settings
from decklab.server.frames import encode
from decklab.server.service import Encoded, Listener, ServiceError, Table, TableService

log = logging.getLogger("decklab.server.live")
router = APIRouter()

CLOSE_POLICY = 4403
CLOSE_FLOOD = 4429
CLOSE_SILENT = 4408
CLOSE_BEHIND = 4409


def origin_allowed(origin: str | None, host: str | None, settings: Settings) -> bool:
    """No Origin (not a browser) or the server's own host, or one the operator allowed."""
    if origin is None:
        return True
    if origin in settings.allowed_origins:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.netloc.lower() == (host or "").lower()


def error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **extra}


class Connection:
    """One WebSocket following one table as one viewer."""

    def __init__(self, ws: WebSocket, service: TableService, table: Table) -> None:
        self.ws = ws
        self.service = service
        self.settings = service.settings
        self.table = table
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
            message = json.loads(raw)
        except ValueError:
            self.push(error("bad_frame", "a frame is one JSON object"))
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            self.push(error("bad_frame", 'a frame is a JSON object with a "type"'))
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
            elif kind == "hint":
                got = await self.service.hint(self.table.id, self._token, address=self._address)
                self.push({"type": "hint", **got, "version": int(got["version"]), **echo})
            elif kind == "hello":
                raise ServiceError("bad_frame", "hello is sent once, first")
            else:
                raise ServiceError("bad_frame", f"unknown frame type {kind[:32]!r}")
        except DBAPIError:  # the database is locked or gone: nothing changed, try again
            self.push(error("unavailable", "the database is unavailable: try again", **echo))
        except ServiceError as exc:
            extra: dict[str, Any] = dict(echo)
            if exc.code == "stale":
                table = await self.service.table(self.table.id)
                extra["sync"] = self.service.sync_frame(table, self.viewer)
            self.push(error(exc.code, exc.message, **extra))

    _token: str | None = None

    @property
    def _address(self) -> str:
        client = self.ws.client
        return client.host if client is not None else "unknown"


@router.websocket("/api/tables/{table_id}/live")
async def live(ws: WebSocket, table_id: str) -> None:
    service: TableService = ws.app.state.service
    settings = service.settings
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), settings):
        log.warning("websocket refused: foreign origin", extra={"table": table_id})
        await ws.close(CLOSE_POLICY)
        return
    await ws.accept()
    try:
        table = await service.table(table_id)
    except ServiceError as exc:
        await ws.send_text(encode(error(exc.code, exc.message)))
        await ws.close(CLOSE_POLICY)
        return
    conn = Connection(ws, service, table)
    try:
        hello = await asyncio.wait_for(ws.receive_text(), settings.hello_timeout_s)
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        await _close_quietly(ws, CLOSE_POLICY)
        return
    try:
        if len(hello) > settings.max_frame_bytes:
            raise ServiceError("too_large", "frame too large")
        first = json.loads(hello)
        if not isinstance(first, dict) or first.get("type") != "hello":
            raise ServiceError("bad_frame", 'the first frame is {"type": "hello", …}')
        token = first.get("token")
        last = first.get("last_version")
        if token is not None and not isinstance(token, str):
            raise ServiceError("bad_frame", "token is text")
        if last is not None and (not isinstance(last, int) or isinstance(last, bool)):
            raise ServiceError("bad_frame", "last_version is a whole number")
        viewer = await service.viewer_of(table, token)
    except (ServiceError, ValueError) as exc:
        code, message = (
            (exc.code, exc.message) if isinstance(exc, ServiceError) else ("bad_frame", "not JSON")
        )
        await ws.send_text(encode(error(code, message)))
        await _close_quietly(ws, CLOSE_POLICY)
        return
    conn._token, conn.viewer = token, viewer
    table = await service.table(table_id)
    conn.table = table
    key, listener = service.subscribe(table, viewer, last, encoded=True)
    conn.key, conn.listener = key, listener
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
    await service.connected(table, viewer)
    writer = asyncio.create_task(conn.writer())
    beat = asyncio.create_task(conn.heartbeat())
    try:
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
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        writer.cancel()
        beat.cancel()
        service.unsubscribe(table, key)
        service.disconnected(await service.table(table_id), viewer)


async def _close_quietly(ws: WebSocket, code: int) -> None:
    with contextlib.suppress(RuntimeError):
        await ws.close(code)
