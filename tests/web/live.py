"""A live decklab server on loopback for browser tests, the web bench and screenshots.

uvicorn runs the real application in a thread of this process, on 127.0.0.1 and
a random free port, so a test can drive a browser against it and still read the
server's true state (``service``) to check what the browser must not show.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import uvicorn

from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.config import Settings
from decklab.server.service import TableService

CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    """A free port in 20000-32000: never a fixed one (the machine is shared), and below
    Linux's ephemeral range (32768-60999), so no outgoing connection can hold it."""
    for _ in range(100):
        port = random.randint(20000, 32000)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port found")


class Wall:
    """A wall clock a test moves by hand (turn-based deadlines, mail batching): pass it
    as ``LiveServer(..., wall=Wall())`` and call :meth:`LiveServer.advance`."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


class Ticks(Wall):
    """A monotonic clock a test moves by hand (live clocks, grace periods): pass it as
    ``LiveServer(..., ticks=Ticks())`` and call :meth:`LiveServer.tick`. It stands
    still otherwise, so no clock runs out and no grace period ends on a slow machine."""

    def __init__(self) -> None:
        self.now = time.monotonic()


class _Server(uvicorn.Server):
    """uvicorn's server, keeping the event loop it runs in (to call into it)."""

    loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().serve(sockets)


class LiveServer:
    """``with LiveServer(folder) as server:`` — the server runs until the block ends.
    ``wall``: the service's wall clock (turn-based deadlines, mail), for a test to move."""

    def __init__(
        self,
        folder: Path,
        pool: BotPool | None = None,
        wall: Wall | None = None,
        ticks: Ticks | None = None,
        **settings: Any,
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        options = {"grace_s": 30.0, "heartbeat_s": 5.0, "tables_per_window": 10000, **settings}
        self.settings = Settings(database_url=f"sqlite:///{folder / 'web.sqlite3'}", **options)
        self.app = create_app(self.settings, pool=pool)
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on"
        )
        self.wall = wall
        self.ticks = ticks
        self.server = _Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the live server did not start")
            time.sleep(0.05)
        if self.wall is not None:  # before any table: every deadline counts from it
            self.service.wall = self.wall
        if self.ticks is not None:
            self.service.ticks = self.ticks
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)

    @property
    def service(self) -> TableService:
        service: TableService = self.app.state.service
        return service

    def in_loop(self, call: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
        """Run ``call()`` (a coroutine) in the server's event loop and wait for it."""
        assert self.server.loop is not None
        return asyncio.run_coroutine_threadsafe(call(), self.server.loop).result(30)

    def advance(self, seconds: float) -> None:
        """Move the injected wall clock on; the server's own deadline loop then applies
        whatever fell due (nothing here runs the deadlines for it)."""
        assert self.wall is not None and self.server.loop is not None
        self.wall.now += seconds
        self.server.loop.call_soon_threadsafe(self.service.wall_moved)

    def tick(self, seconds: float) -> None:
        """Move the injected monotonic clock on; the server sets its clocks' alarms again
        from the new time (and applies a clock that ran out by it)."""
        assert self.ticks is not None and self.server.loop is not None
        self.ticks.now += seconds
        self.server.loop.call_soon_threadsafe(self.service.ticks_moved)

    # ------------------------------------------------------------ REST helpers
    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"content-type": "application/json"}
        if token:
            headers["authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                raw = answer.read()
        except urllib.error.HTTPError as exc:
            raise AssertionError(f"{method} {path}: {exc.code} {exc.read()[:300]!r}") from None
        return json.loads(raw) if raw else None

    def table(self, game: str, players: int, seats: list[str], **extra: Any) -> str:
        """A new table; ``seats``: "open" or a bot spec per seat. Returns its id."""
        body = {
            "game": game,
            "players": players,
            "seats": [
                {"kind": "open"} if s == "open" else {"kind": "bot", "bot": s} for s in seats
            ],
            **extra,
        }
        table_id: str = self.call("POST", "/api/tables", body)["id"]
        return table_id

    def join(self, table_id: str, seat: str, nickname: str) -> str:
        token: str = self.call(
            "POST", f"/api/tables/{table_id}/join", {"seat": seat, "nickname": nickname}
        )["token"]
        return token

    def state(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        frame: dict[str, Any] = self.call("GET", f"/api/tables/{table_id}/state", token=token)
        return frame

    def wait_finished(self, table_id: str, limit_s: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            summary: dict[str, Any] = self.call("GET", f"/api/tables/{table_id}")
            if summary["status"] == "finished":
                return summary
            time.sleep(0.1)
        raise AssertionError(f"table {table_id} did not finish in {limit_s} s")


def seat_script(page: Any, table_id: str, token: str, seat: str, nickname: str) -> None:
    """Put a seat token in a page's storage, as joining from that browser would."""
    page.evaluate(
        "([id, value]) => localStorage.setItem('decklab.seat.' + id, value)",
        [table_id, json.dumps({"token": token, "seat": seat, "nickname": nickname})],
    )
