"""Hygiene for every HTTP response and request: security headers, a body size limit,
and a per-address limit on creating tables."""

from __future__ import annotations

import json
import time
from collections import deque

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
MAX_BODY = 64 * 1024


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` once a body passes :data:`MAX_BODY`: an HTTPException, so that
    FastAPI passes it on as it is (it turns any other error while reading a body into 400)."""

    def __init__(self) -> None:
        super().__init__(413, f"a request body is at most {MAX_BODY} bytes")


class Hygiene:
    """ASGI middleware: adds the security headers to every HTTP response and refuses a
    body over :data:`MAX_BODY` before the application has it.

    A declared ``Content-Length`` past the limit is refused at once. Any other body
    (chunked, or one longer than it said) is counted as it arrives: the read that passes
    the limit raises :class:`BodyTooLarge` instead of handing the bytes on, so nothing
    past the limit is kept or parsed, and the answer closes the connection rather than
    read the rest."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await self._refuse(send)
            return

        received = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY:
                    raise BodyTooLarge
            return message

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in present]
                if received > MAX_BODY:  # the rest of the body is not read: hang up
                    extra.append((b"connection", b"close"))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        try:
            await self.app(scope, counted_receive, send_with_headers)
        except BodyTooLarge:
            if started:
                raise
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {
                "error": {
                    "code": "too_large",
                    "message": f"a request body is at most {MAX_BODY} bytes",
                }
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"connection", b"close"),
                    *HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class WindowLimit:
    """At most ``count`` events per ``window_s`` per key (a sliding window)."""

    def __init__(self, count: int, window_s: float) -> None:
        self.count = count
        self.window_s = window_s
        self.seen: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        times = self.seen.setdefault(key, deque())
        while times and now - times[0] > self.window_s:
            times.popleft()
        if len(times) >= self.count:
            return False
        times.append(now)
        if len(self.seen) > 10000:  # forget idle addresses
            for k in [k for k, v in self.seen.items() if not v or now - v[-1] > self.window_s]:
                self.seen.pop(k, None)
        return True
