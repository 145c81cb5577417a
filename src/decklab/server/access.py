"""The access log (``--access-log``): one JSON line per HTTP request and per WebSocket.

A line holds the client's address, the method, the path, the status and the time taken:
what an operator needs to follow a request through nginx's log. It never holds a header
(the seat tokens travel in ``Authorization`` and in the first WebSocket frame) nor the
query string: no decklab route takes a secret there, but a client could send anything,
and a log is meant to be shareable. Off by default: on a busy server it is a line per
request, and the structured logs already say what happened to tables.
"""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("decklab.access")


class AccessLog:
    """ASGI middleware writing :data:`log` lines (at info level, whatever ``--log-level``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        log.setLevel(logging.INFO)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500 if scope["type"] == "http" else 403

        async def watching_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "websocket.accept":
                status = 101
            await send(message)

        try:
            await self.app(scope, receive, watching_send)
        finally:
            client = scope.get("client")
            log.info(
                "request",
                extra={
                    "client": client[0] if client else None,
                    "method": scope.get("method", "WS"),
                    "path": scope.get("path", "")[:200],
                    "status": status,
                    "ms": round((time.perf_counter() - started) * 1000, 1),
                },
            )
