"""Helpers for tests that talk to the real application through Starlette's TestClient."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

Frame = dict[str, Any]


def new_table(client: TestClient, **body: Any) -> Frame:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    result: Frame = answer.json()
    return result


def join(client: TestClient, table: str, seat: str, nickname: str = "ann") -> str:
    answer = client.post(f"/api/tables/{table}/join", json={"seat": seat, "nickname": nickname})
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def hello(ws: WebSocketTestSession, token: str | None = None, last: int | None = None) -> Frame:
    """Say hello; returns the welcome frame."""
    frame: Frame = {"type": "hello"}
    if token is not None:
        frame["token"] = token
    if last is not None:
        frame["last_version"] = last
    ws.send_json(frame)
    welcome: Frame = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return welcome


def receive(ws: WebSocketTestSession) -> Frame:
    """The next frame; a ping is answered with a pong, as a live client does (the server
    closes a connection that stays silent for two heartbeats, and a slow bot on a loaded
    machine can take longer than that)."""
    frame: Frame = ws.receive_json()
    if frame.get("type") == "ping":
        ws.send_json({"type": "pong", "at": frame.get("at")})
    return frame


def until(
    ws: WebSocketTestSession,
    wanted: Callable[[Frame], bool],
    limit: int = 200,
    seconds: float = 60.0,
) -> Frame:
    """Read frames until one is ``wanted``: at most ``limit`` other frames, pings apart
    (they keep coming, so this never hangs), for at most ``seconds`` — a bot or a grace
    period on a loaded machine takes longer than many quick heartbeats."""
    seen: list[str] = []
    others = 0
    deadline = time.monotonic() + seconds
    while others < limit and time.monotonic() < deadline:
        frame = receive(ws)
        if wanted(frame):
            return frame
        seen.append(f"{frame.get('type')}/{frame.get('kind', '')}")
        others += frame.get("type") != "ping"
    raise AssertionError(f"the wanted frame never came; came: {', '.join(seen[-40:])}")


def collect(
    ws: WebSocketTestSession, wanted: Callable[[Frame], bool], limit: int = 200
) -> list[Frame]:
    """Every frame up to and including the first ``wanted`` one."""
    seen = []
    for _ in range(limit):
        frame = receive(ws)
        seen.append(frame)
        if wanted(frame):
            return seen
    raise AssertionError("the wanted frame never came")


def state_of(frame: Frame) -> Frame:
    state: Frame = frame["state"]
    return state
