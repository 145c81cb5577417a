"""SIGKILL the server at random moments while scripted clients and bots play many tables;
after every restart nothing acknowledged is lost and nothing is applied twice.

Each scripted client plays through the live WebSocket: it takes the version and the
legal actions from its frames, sends an intent with a fresh client id, and counts a
move as made only when the ``ack`` arrives. When the connection dies it waits for
the server to come back and resends the same intent (same client id, same version):
the server must answer it (it was committed before the kill) or apply it (it was
not) — never both, never neither. At the end each table's stored actions by people
are exactly the acknowledged ones, in order, and the stored record replays.
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from decklab.engine import records
from decklab.engine.registry import game_names, get_game

from .serverproc import ForkedServer, ServerProcess

KILLS = 20
TABLES = 8
BUDGET_S = 240.0
"""A cap, not a target: the test ends as soon as it has killed the server often enough."""


class Player:
    """Plays one table's human seats, one intent at a time."""

    def __init__(
        self, server: ServerProcess, table: str, tokens: dict[int, str], rng: random.Random
    ) -> None:
        self.server = server
        self.table = table
        self.tokens = tokens
        self.rng = rng
        self.acked: list[tuple[str, str]] = []
        self.pending: dict[str, object] | None = None
        self.pending_seat = 0
        self.finished = False
        self.resends = 0

    def step(self) -> None:
        """One move (or one resend). Raises on a dead connection."""
        url = f"ws://127.0.0.1:{self.server.port}/api/tables/{self.table}/live"
        if self.pending is None:
            public = httpx.get(
                f"{self.server.base}/api/tables/{self.table}/state", timeout=5
            ).json()["state"]
            if public["status"] == "finished":
                self.finished = True
                return
            mine = [int(s[1:]) - 1 for s in public["to_act"] if int(s[1:]) - 1 in self.tokens]
            if not mine:
                time.sleep(0.02)  # a bot is thinking
                return
            self.pending_seat = self.rng.choice(mine)
        with connect(url, open_timeout=5, close_timeout=1) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.tokens[self.pending_seat]}))
            json.loads(ws.recv(timeout=5))  # welcome
            sync = json.loads(ws.recv(timeout=5))
            if self.pending is None:
                state = sync["state"]
                if not state["legal"]:
                    return
                self.pending = {
                    "type": "intent",
                    "action": self.rng.choice(state["legal"]),
                    "version": sync["version"],
                    "client_id": f"{self.table}-{len(self.acked)}",
                }
            else:
                self.resends += 1
            ws.send(json.dumps(self.pending))
            while True:
                frame = json.loads(ws.recv(timeout=10))
                if frame["type"] == "ack" and frame.get("client_id") == self.pending["client_id"]:
                    self.acked.append((f"p{self.pending_seat + 1}", str(self.pending["action"])))
                    self.pending = None
                    return
                if frame["type"] == "error" and frame.get("client_id") == self.pending["client_id"]:
                    # stale: another seat (a bot) moved first, and this intent was never applied
                    assert frame["code"] == "stale", frame
                    self.pending = None
                    return


def _tables(server: ServerProcess, rng: random.Random) -> list[Player]:
    players = []
    names = game_names()
    for k in range(TABLES):
        info = get_game(names[k % len(names)]).info
        n = info.min_players
        bots = [i for i in range(1, n) if k % 2]
        seats = [
            {"kind": "bot", "bot": "random"} if i in bots else {"kind": "open"} for i in range(n)
        ]
        made = httpx.post(
            f"{server.base}/api/tables",
            json={"game": info.name, "seats": seats, "deal": k},
            timeout=10,
        ).json()
        tokens = {}
        for i in range(n):
            if i not in bots:
                joined = httpx.post(
                    f"{server.base}/api/tables/{made['id']}/join",
                    json={"seat": f"p{i + 1}", "nickname": f"n{i}"},
                    timeout=10,
                ).json()
                tokens[i] = joined["token"]
        players.append(Player(server, made["id"], tokens, random.Random(k)))
    return players


@pytest.mark.slow
def test_sigkill_loses_no_acknowledged_action(database_url: str, tmp_path: Path) -> None:
    server = ForkedServer(database_url, tmp_path)
    try:
        server.start()
        _play_and_kill(server)
    finally:
        server.stop()


def _play_and_kill(server: ForkedServer) -> None:
    rng = random.Random(99)
    players = _tables(server, rng)
    stop = threading.Event()
    kills = 0

    def killer() -> None:
        nonlocal kills
        while kills < KILLS and not stop.is_set():
            time.sleep(rng.uniform(0.05, 0.6))
            server.kill()
            kills += 1
            server.start()

    thread = threading.Thread(target=killer)
    thread.start()
    deadline = time.monotonic() + BUDGET_S
    try:
        while time.monotonic() < deadline and (
            kills < KILLS or not all(p.finished for p in players)
        ):
            for player in players:
                if player.finished:
                    continue
                try:
                    player.step()
                except AssertionError:
                    raise
                except Exception:
                    time.sleep(0.05)  # the server is down: try again (the same intent) later
            if all(p.finished for p in players):
                time.sleep(0.1)
    finally:
        stop.set()
        thread.join()
    assert kills >= KILLS
    # settle: every pending intent resent and answered
    for player in players:
        for _ in range(200):
            if player.pending is None:
                break
            try:
                player.step()
            except Exception:
                time.sleep(0.05)
        assert player.pending is None
    moves = sum(len(p.acked) for p in players)
    print(
        f"crash test: {kills} kills, {moves} acknowledged moves, {sum(p.resends for p in players)} resends"
    )
    assert moves >= 3 * KILLS, f"only {moves} acknowledged moves were made"
    assert sum(p.resends for p in players) > 0 or kills == 0
    for player in players:
        record = httpx.get(f"{server.base}/api/tables/{player.table}/record", timeout=10).json()
        if "viewer" in record:  # not finished: ask for the full record from the database
            record = _full_record(server, player)
        people = {f"p{i + 1}" for i in player.tokens}
        stored = [
            tuple(line.split(" ", 1))
            for line in record["actions"]
            if line.split(" ", 1)[0] in people
        ]
        assert stored == player.acked, (
            f"table {player.table}: stored actions differ from the acknowledged ones"
        )
        records.replay(record)


def _full_record(server: ServerProcess, player: Player) -> dict[str, object]:
    """The stored record of an unfinished table, straight from the database."""
    from decklab.server.service import rebuild
    from decklab.server.store.db import make_engine
    from decklab.server.store.queries import Store

    store = Store(make_engine(server.database))
    try:
        loaded = store.load(player.table)
        assert loaded is not None
        cls = get_game(loaded.table.game)
        state, _ = rebuild(
            cls,
            loaded.table.num_players,
            loaded.table.options,
            loaded.table.setup,
            loaded.table.seed,
            [(a.actor, a.text, list(a.chance)) for a in loaded.actions],
        )
        return records.make_record(state)
    finally:
        store.close()
