"""SIGKILL the server at random moments while scripted clients and bots play many tables;
after every restart nothing acknowledged is lost and nothing is applied twice.

Every person's seat is played by its own scripted client, in a thread, over one live
WebSocket at a time: it takes the version and the legal actions from its frames,
sends an intent with a fresh client id, and counts a move as made only when the
``ack`` arrives (with the version that move created). When the connection dies it
reconnects as soon as the server is back and resends the same intent (same client
id, same version): the server must answer it (it was committed before the kill) or
apply it (it was not) — never both, never neither; ``stale`` means another seat
moved first and the intent was never applied. The clients play all the time, so
kills land with intents in flight. The test stops once the server has been killed
:data:`KILLS` times and :data:`MOVES` moves have been acknowledged; then each table's
stored actions by people are exactly the acknowledged ones, in the order of their
versions, and the stored record replays.
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from decklab.engine import records
from decklab.engine.registry import game_names, get_game

from .serverproc import ForkedServer, ServerProcess

KILLS = 20
MOVES = 5 * KILLS
"""Acknowledged moves to reach before stopping (on top of the kills)."""
TABLES = 5
"""One table of each game; bots sit at every other one."""
PACE_S = 0.25
"""At most one intent per seat this often (the server limits each connection to 100
messages per 20 s)."""
BUDGET_S = 240.0
"""A cap, not a target: the test ends as soon as it has killed the server often enough."""


class Seat:
    """One person's seat of one table, played by a scripted client in its own thread."""

    def __init__(self, server: ServerProcess, table: str, seat: int, token: str) -> None:
        self.server = server
        self.table = table
        self.seat = seat
        self.token = token
        self.rng = random.Random(f"{table}-{seat}")
        self.acked: list[tuple[int, str, str]] = []  # (version, seat, action)
        self.pending: dict[str, Any] | None = None
        self.resends = 0
        self.finished = False
        self.failure: BaseException | None = None

    def playing(self, stop: threading.Event) -> bool:
        """Until told to stop (or the game ended), and then until no intent of this seat
        is left unanswered."""
        return self.pending is not None or not (self.finished or stop.is_set())

    def run(self, stop: threading.Event, up: threading.Event) -> None:
        try:
            while self.playing(stop):
                try:
                    self._session(stop)
                except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                    # The server is down: the same intent again once it is back (waiting
                    # for the restart rather than knocking keeps the restarts quick).
                    up.wait(30)
                    time.sleep(0.01)
        except BaseException as exc:  # an assertion: the main thread reports it
            self.failure = exc

    def _session(self, stop: threading.Event) -> None:
        url = f"ws://127.0.0.1:{self.server.port}/api/tables/{self.table}/live"
        with connect(url, open_timeout=3, close_timeout=0.5) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.token}))
            state: dict[str, Any] | None = None
            if self.pending is not None:  # the connection died with this intent unanswered
                self.resends += 1
                ws.send(json.dumps(self.pending))
            sent_at = 0.0
            while self.playing(stop):
                frame = json.loads(ws.recv(timeout=10))
                kind = frame["type"]
                got = frame.get("state") or (frame.get("sync") or {}).get("state")
                if got is not None:
                    state = got
                    self.finished = got["status"] == "finished"
                cid = None if self.pending is None else self.pending["client_id"]
                if kind == "ack" and cid is not None and frame.get("client_id") == cid:
                    action = str(self.pending["action"])  # type: ignore[index]
                    self.acked.append((frame["version"], f"p{self.seat + 1}", action))
                    self.pending = None
                elif kind == "error" and cid is not None and frame.get("client_id") == cid:
                    # another seat (a bot, or a simultaneous move) moved first: not applied
                    assert frame["code"] == "stale", frame
                    self.pending = None
                elif kind == "ping":
                    ws.send('{"type":"pong"}')
                if (
                    self.pending is None
                    and not stop.is_set()
                    and state is not None
                    and state["legal"]
                    and kind in {"sync", "event", "ack", "error"}
                ):
                    # under the per-connection rate limit (100 messages per 20 s)
                    time.sleep(max(0.0, sent_at + PACE_S - time.monotonic()))
                    sent_at = time.monotonic()
                    self.pending = {
                        "type": "intent",
                        "action": self.rng.choice(state["legal"]),
                        "version": state["version"],
                        "client_id": f"s{self.seat}-{len(self.acked)}-{self.rng.random():.6f}",
                    }
                    ws.send(json.dumps(self.pending))


def _tables(server: ServerProcess) -> list[tuple[str, list[Seat]]]:
    tables = []
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
            json={"game": info.name, "seats": seats, **({"deal": k} if n == 1 else {})},
            timeout=10,
        ).json()
        people = []
        for i in range(n):
            if i not in bots:
                joined = httpx.post(
                    f"{server.base}/api/tables/{made['id']}/join",
                    json={"seat": f"p{i + 1}", "nickname": f"n{i}"},
                    timeout=10,
                ).json()
                people.append(Seat(server, made["id"], i, joined["token"]))
        tables.append((made["id"], people))
    return tables


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
    tables = _tables(server)
    seats = [seat for _, people in tables for seat in people]
    stop, up = threading.Event(), threading.Event()
    up.set()
    threads = [threading.Thread(target=seat.run, args=(stop, up), daemon=True) for seat in seats]
    for thread in threads:
        thread.start()
    kills = 0
    downtime: list[float] = []
    began = time.monotonic()
    deadline = time.monotonic() + BUDGET_S
    try:
        while time.monotonic() < deadline and (
            kills < KILLS or sum(len(s.acked) for s in seats) < MOVES
        ):
            if all(s.finished for s in seats):
                break
            # A random moment of play: once the clients are back and moving again.
            acked = sum(len(s.acked) for s in seats)
            until = time.monotonic() + 10
            while sum(len(s.acked) for s in seats) == acked and time.monotonic() < until:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.0, 0.3))
            if kills < KILLS:
                down = time.monotonic()
                up.clear()
                server.kill()
                kills += 1
                server.start()
                up.set()
                downtime.append(time.monotonic() - down)
    finally:
        stop.set()
        up.set()
        for thread in threads:
            thread.join(60)
    for seat in seats:
        if seat.failure is not None:
            raise seat.failure
        assert seat.pending is None, (
            f"an intent of {seat.table} p{seat.seat + 1} was never answered"
        )
    moves = sum(len(s.acked) for s in seats)
    resends = sum(s.resends for s in seats)
    print(
        f"crash test: {kills} kills, {moves} acknowledged moves, {resends} resends "
        f"in {time.monotonic() - began:.1f} s; restarts took {sum(downtime):.1f} s "
        f"(longest {max(downtime, default=0):.2f} s)"
    )
    assert kills >= KILLS
    assert moves >= MOVES or all(s.finished for s in seats), f"only {moves} moves were acknowledged"
    # Clients play all the time, so kills land with intents in flight: some were resent
    # (and answered once, whether the kill came before or after their commit).
    assert resends > 0, "no kill landed with an intent in flight"
    for table, people in tables:
        acked = sorted(a for seat in people for a in seat.acked)
        versions = [v for v, _, _ in acked]
        assert len(set(versions)) == len(versions), f"table {table}: two acks of one version"
        # (a record is worked out by the heavy workers, which a restarted server starts at
        # its first heavy request: on a machine busy with the rest of the suite, seconds)
        record = httpx.get(f"{server.base}/api/tables/{table}/record", timeout=120).json()
        if "viewer" in record:  # not finished: ask for the full record from the database
            record = _full_record(server, table)
        names = {f"p{seat.seat + 1}" for seat in people}
        stored = [
            tuple(line.split(" ", 1))
            for line in record["actions"]
            if line.split(" ", 1)[0] in names
        ]
        assert stored == [(who, action) for _, who, action in acked], (
            f"table {table}: stored actions differ from the acknowledged ones"
        )
        records.replay(record)


def _full_record(server: ServerProcess, table: str) -> dict[str, object]:
    """The stored record of an unfinished table, straight from the database."""
    from decklab.server.replay import rebuild
    from decklab.server.store.db import make_engine
    from decklab.server.store.queries import Store

    store = Store(make_engine(server.database))
    try:
        loaded = store.load(table)
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
