"""Helpers for the rating tests: a short game for three (chosen by what games are, never
by name), accounts as separate clients of one application, and playing every seat."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from starlette.testclient import TestClient

from decklab.engine.errors import OptionError
from decklab.engine.registry import game_names, get_game

from .accountdrive import page, signup
from .wsdrive import auth


def _length(name: str, options: dict[str, Any]) -> int | None:
    """Moves of a first-legal-action game for three with these options (None: refused)."""
    try:
        state = get_game(name).new(3, options, seed=1)
    except OptionError:
        return None
    moves = 0
    while not state.is_terminal() and moves < 2000:
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
        moves += 1
    return moves


def short_game() -> tuple[str, dict[str, Any]]:
    """A sequential game for three, with its whole-number options at their minimum where
    the game allows it: the shortest such game to play out in a test."""
    found: list[tuple[int, str, dict[str, Any]]] = []
    for name in game_names():
        info = get_game(name).info
        if not info.min_players <= 3 <= info.max_players or info.simultaneous:
            continue
        least = {o.name: o.minimum for o in info.options if o.kind is int and o.minimum}
        for options in (least, {}):
            moves = _length(name, options)
            if moves is not None:
                found.append((moves, name, options))
                break
    moves, name, options = min(found)
    return name, options


@dataclass
class Person:
    """An account's session: its cookie and its page's CSRF token. Every request goes
    through the one started client (a second client would run each request on an event
    loop of its own, which the tasks a request starts, bots included, do not outlive)."""

    cookie: str
    me: dict[str, Any]


def person(client: TestClient, username: str) -> Person:
    """A new account; the client's cookie jar is left empty (a guest's)."""
    me = signup(client, username)
    cookie = client.cookies.get("decklab_session") or ""
    client.cookies.clear()
    return Person(cookie, me)


@contextmanager
def acting(client: TestClient, who: Person | None) -> Iterator[dict[str, str]]:
    """The client as ``who`` (None: a guest) for a while; yields the page's headers."""
    client.cookies.clear()
    if who is None:
        yield {}
        return
    client.cookies.set("decklab_session", who.cookie)
    try:
        yield page(who.me)
    finally:
        client.cookies.clear()


def create(client: TestClient, who: Person | None, **body: Any) -> dict[str, Any]:
    with acting(client, who) as headers:
        answer = client.post("/api/tables", json=body, headers=headers)
    assert answer.status_code == 201, answer.text
    got: dict[str, Any] = answer.json()
    return got


def take(client: TestClient, who: Person, table: str, seat: str) -> str:
    with acting(client, who) as headers:
        answer = client.post(
            f"/api/tables/{table}/join", json={"seat": seat, "nickname": "x"}, headers=headers
        )
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def play_all(client: TestClient, table: str, tokens: list[str], limit_s: float = 120) -> None:
    """Play every token's seat (first legal action) until the game ends; bots move alone.
    ``client`` carries no cookie: the seat tokens are enough."""
    deadline, i = time.monotonic() + limit_s, 0
    while time.monotonic() < deadline:
        moved = False
        for token in tokens:
            sync = client.get(f"/api/tables/{table}/state", headers=auth(token)).json()
            if sync["state"]["status"] == "finished":
                return
            if sync["state"]["legal"]:
                i += 1
                body = {
                    "action": sync["state"]["legal"][0],
                    "version": sync["version"],
                    "client_id": f"m{i}",
                }
                answer = client.post(f"/api/tables/{table}/actions", json=body, headers=auth(token))
                assert answer.status_code in (200, 409), answer.text  # 409: a bot moved first
                moved = True
        if not moved:
            time.sleep(0.01)
    raise AssertionError(f"the game did not end in time: {sync}")


def wait_rated(client: TestClient, game: str, players: int, limit_s: float = 10) -> dict[str, Any]:
    """The leaderboard once it holds ``players`` entries (the rating follows the end)."""
    deadline = time.monotonic() + limit_s
    while True:
        board: dict[str, Any] = client.get(f"/api/leaderboard/{game}").json()
        if len(board["entries"]) >= players or time.monotonic() > deadline:
            return board
        time.sleep(0.02)
