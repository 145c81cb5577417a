"""Hostile: heavy requests cannot stall the server, abandoned tables cost nothing, and
database faults are answered properly (issue 19, items 4, 5 (tables that never start)
and 8). Every test runs on SQLite and on PostgreSQL where the database matters."""

from __future__ import annotations

import asyncio
import datetime as _dt
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import insert

from decklab.engine.registry import game_names, get_game
from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.errors import ServiceError
from decklab.server.replay import replay_text
from decklab.server.service import TableService
from decklab.server.store.db import make_engine, upgrade
from decklab.server.store.models import SeatRow, TableRow
from decklab.server.store.queries import Store

from ..conftest import fast_settings
from ..games import two_player
from ..serverproc import ServerProcess
from ..wsdrive import auth, hello, join, new_table, until

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


# ------------------------------------------------------------------ item 4: heavy requests
def longest_game() -> tuple[str, int]:
    """The game (at its most players) whose random playouts are longest: found by playing,
    never by name."""
    best = ("", 0, 0)
    for name in game_names():
        cls = get_game(name)
        players = cls.info.max_players
        rng = random.Random(7)
        state = cls.new(players, {}, seed=7)
        steps = 0
        while not state.is_terminal() and steps < 5000:
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            steps += 1
        if steps > best[2]:
            best = (name, players, steps)
    return best[0], best[1]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def long_game(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[ServerProcess, str, int]]:
    """A real server holding a finished game of bots, as long as games get."""
    home = tmp_path_factory.mktemp("heavy")
    if request.param == "sqlite":
        url = f"sqlite:///{home / 'server.sqlite3'}"
    else:
        url = request.getfixturevalue("pg_server").create_database(f"h_{uuid.uuid4().hex[:12]}")
    server = ServerProcess(url, home)
    server.start()
    try:
        game, players = longest_game()
        seats = [{"kind": "bot", "bot": "random"} for _ in range(players)]
        made = httpx.post(
            f"{server.base}/api/tables",
            json={"game": game, "players": players, "seats": seats, "public": False},
            timeout=10,
        )
        assert made.status_code == 201, made.text
        table = made.json()["id"]
        deadline = time.monotonic() + 240
        summary: dict[str, Any] = {}
        while time.monotonic() < deadline:
            summary = httpx.get(f"{server.base}/api/tables/{table}", timeout=10).json()
            if summary["status"] == "finished":
                break
            time.sleep(0.2)
        assert summary["status"] == "finished", summary
        assert summary["actions"] >= 200, summary  # long enough to be worth stalling on
        yield server, table, summary["actions"]
    finally:
        server.stop()


REPLAYS = """
import json, sys, threading, time
import httpx
base, table, steps = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
time.sleep(0.3)  # the poller is going first
lock = threading.Lock()
def replay(index):
    # its own loopback address each; a different step each: no answer is a cached one
    transport = httpx.HTTPTransport(local_address=f"127.0.0.{index + 2}")
    with httpx.Client(base_url=base, transport=transport, timeout=240) as client:
        got = client.get(f"/api/tables/{table}/replay?step={steps[index]}")
    step = got.json().get("step") if got.status_code == 200 else got.text[:200]
    with lock:
        print(json.dumps([got.status_code, step]), flush=True)
threads = [threading.Thread(target=replay, args=(i,)) for i in range(10)]
for t in threads:
    t.start()
for t in threads:
    t.join()
"""


ROUNDS = 3
"""Tries at the health figure: the machine is shared (another test, another tenant), so a
round may lose a core for a moment; a server that replays on its event loop stalls for
most of a second in every round (2.3-15 s p99 on the code before), so it fails all three."""


def _health_while_replaying(server: ServerProcess, table: str, steps: list[int]) -> list[float]:
    """``/api/health`` latencies while ten replays (of ``steps``) are worked on."""
    latencies: list[float] = []
    stop = threading.Event()

    def poll() -> None:
        with httpx.Client(base_url=server.base, timeout=10) as client:
            client.get("/api/health")  # the connection is open before timing starts
            while not stop.is_set():
                started = time.perf_counter()
                assert client.get("/api/health").status_code == 200
                latencies.append(time.perf_counter() - started)
                time.sleep(0.02)

    # The replays are asked for by another process, so that reading their answers takes
    # no time from the poller's measurements (it would share this process's GIL).
    asker = subprocess.Popen(
        [sys.executable, "-c", REPLAYS, server.base, table, json.dumps(steps)],
        stdout=subprocess.PIPE,
        text=True,
    )
    poller = threading.Thread(target=poll)
    poller.start()
    try:
        out, _ = asker.communicate(timeout=300)
    finally:
        time.sleep(0.1)
        stop.set()
        poller.join(30)
    assert asker.returncode == 0
    answers = [json.loads(line) for line in out.splitlines()]
    assert sorted(answers) == sorted([200, step] for step in steps), answers
    assert len(latencies) > 20
    return latencies


def test_health_stays_quick_while_ten_replays_run(
    long_game: tuple[ServerProcess, str, int],
) -> None:
    """Ten replays of the longest game at once, each from its own loopback address (so
    that no per-address share refuses them): ``/api/health`` polled every 20 ms keeps a
    p99 under 50 ms, because no replay is rebuilt on the event loop (best of
    :data:`ROUNDS` rounds, each of ten replays not asked for before)."""
    server, table, actions = long_game
    # The heavy workers start at a server's first heavy request (a one-time second of
    # process start): one replay first, so that what is measured is a running server.
    first = httpx.get(f"{server.base}/api/tables/{table}/replay?step=1", timeout=120)
    assert first.status_code == 200, first.text
    figures = []
    for round_ in range(ROUNDS):
        steps = [actions - 10 * round_ - i for i in range(10)]  # no answer is a cached one
        latencies = _health_while_replaying(server, table, steps)
        p99 = statistics.quantiles(latencies, n=100, method="inclusive")[98]
        figures.append(f"p99 {p99 * 1000:.1f} ms, worst {max(latencies) * 1000:.0f} ms")
        print(f"round {round_ + 1}: health {figures[-1]} over {len(latencies)} polls")
        if p99 < 0.050:
            return
    raise AssertionError(f"/api/health p99 over 50 ms in every round: {figures}")


class HeldReplays:
    """The server's replay work held until :meth:`release`: what "in flight" means is then
    a state the test sees (:attr:`entered`), not a race between the replays' own speed
    and the others' arrival (on a loaded machine the first replays finished, or were
    answered from the cache, before the rest came in, and all eight were answered 200)."""

    def __init__(self) -> None:
        self.entered = threading.Semaphore(0)
        self.released = threading.Event()

    def __call__(self, *args: Any) -> str:
        self.entered.release()
        if not self.released.wait(120):
            raise AssertionError("the held replays were never released")
        return replay_text(*args)


def test_one_address_gets_its_share_and_is_refused_the_rest_at_once(
    database_url: str, bot_pool: BotPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight replays at once from one address: its share (two) are worked on, the six
    others are refused with 429, the error shape and ``Retry-After`` while the two are
    still being worked on (refused at once, not queued behind them)."""
    held = HeldReplays()
    monkeypatch.setattr("decklab.server.service.replay_text", held)
    settings = fast_settings(database_url=database_url, heavy_workers=0, heavy_per_address=2)
    app = create_app(settings, pool=bot_pool)  # heavy_workers 0: the work runs in-process
    answers: list[httpx.Response] = []
    answered = threading.Semaphore(0)
    with TestClient(app, base_url="http://testserver") as client:
        table = new_table(client, game=two_player(), players=2)["id"]
        start = threading.Barrier(8)

        def replay() -> None:
            start.wait()
            answers.append(client.get(f"/api/tables/{table}/replay?step=0"))
            answered.release()

        threads = [threading.Thread(target=replay) for _ in range(8)]
        for thread in threads:
            thread.start()
        try:
            for _ in range(2):  # generous bounds on events: two in the work, six answered
                assert held.entered.acquire(timeout=60), "two replays never reached the work"
            for _ in range(6):
                assert answered.acquire(timeout=60), [a.status_code for a in answers]
            refused = list(answers)  # answered while the two are held
        finally:
            held.released.set()
            for thread in threads:
                thread.join(60)
        assert [a.status_code for a in refused] == [429] * 6, [a.text for a in refused]
        for answer in refused:
            assert answer.json()["error"]["code"] == "rate_limited"
            assert int(answer.headers["retry-after"]) >= 1
        worked = [a for a in answers if a not in refused]
        assert [(a.status_code, a.json()["step"]) for a in worked] == [(200, 0)] * 2
        assert not held.entered.acquire(blocking=False)  # no refused one reached the work


def test_heavy_gate_bounds_each_address_and_everyone() -> None:
    """The gate's arithmetic: ``per_address`` slots each, ``total`` in all, a slot given
    back is free again (and a refusal takes none)."""
    from decklab.server.heavy import HeavyGate  # here: the module is new (old code: fails)

    gate = HeavyGate(per_address=2, total=3)
    assert [gate.enter("a"), gate.enter("a"), gate.enter("a")] == [None, None, "address"]
    assert gate.enter("b") is None and gate.enter("c") == "full"
    gate.leave("a")
    assert gate.enter("c") is None and gate.enter("a") == "full"
    for key in ("a", "b", "c"):
        gate.leave(key)
    assert gate.count == 0 and gate.in_flight == {}


# ------------------------------------------------------------------ item 5: tables that never start
def _waiting_rows(count: int, *, age_s: float = 0.0) -> tuple[list[dict[str, Any]], list[Any]]:
    """``count`` tables of two open seats, as a lobby full of abandoned tables holds them."""
    game = two_player()
    cls = get_game(game)
    state = cls.new(2, {}, seed=3)
    when = _dt.datetime.now(_dt.UTC) - _dt.timedelta(seconds=age_s)
    tables, seats = [], []
    for _ in range(count):
        table_id = uuid.uuid4().hex[:12]
        tables.append(
            {
                "id": table_id,
                "game": game,
                "game_version": cls.info.version,
                "num_players": 2,
                "options": dict(state.options),
                "setup": state.export_setup(),
                "seed": 3,
                "version": 1,
                "status": "waiting",
                "public": True,
                "created_at": when,
                "updated_at": when,
            }
        )
        seats += [
            {"table_id": table_id, "seat": s, "kind": "open", "zombie": False} for s in (0, 1)
        ]
    return tables, seats


async def _status(store: Store, table_id: str) -> str:
    loaded = await asyncio.to_thread(store.load, table_id)
    assert loaded is not None
    return loaded.table.status


def _bulk_insert(store: Store, count: int, *, age_s: float = 0.0) -> list[str]:
    tables, seats = _waiting_rows(count, age_s=age_s)
    with store.engine.begin() as conn:
        conn.execute(insert(TableRow), tables)
        conn.execute(insert(SeatRow), seats)
    return [t["id"] for t in tables]


@pytest.mark.anyio
async def test_restart_rebuilds_no_waiting_table(database_url: str) -> None:
    """2,000 tables nobody joined cost a start nothing: none is rebuilt, and one of them
    asked for by id later is read then, joined, and played."""
    upgrade(database_url)
    store = Store(make_engine(database_url))
    try:
        ids = _bulk_insert(store, 2000)
        service = TableService(store, fast_settings(heavy_workers=0))
        began = time.perf_counter()
        await service.start()
        took = time.perf_counter() - began
        try:
            assert service.tables == {}, f"{len(service.tables)} waiting tables rebuilt on start"
            assert took < 1.0, f"start took {took:.2f} s"
            wanted = ids[1234]
            table = await service.table(wanted)
            assert table.status == "waiting"
            await service.join(wanted, "p1", "ann")
            await service.join(wanted, "p2", "bob")
            assert (await service.table(wanted)).status == "playing"
        finally:
            await service.close()
        again = TableService(store, fast_settings(heavy_workers=0))
        await again.start()
        try:
            assert set(again.tables) == {wanted}  # a table in play is rebuilt, the rest not
        finally:
            await again.close()
    finally:
        store.close()


@pytest.mark.anyio
async def test_abandoned_waiting_tables_expire(database_url: str) -> None:
    """Tables left waiting past ``waiting_table_ttl_s`` are marked ``expired`` by the
    server's own sweep: out of the lobby, their page says so, joining is refused clearly;
    a table waiting for less long is left alone."""
    upgrade(database_url)
    store = Store(make_engine(database_url))
    try:
        old = _bulk_insert(store, 50, age_s=2 * 24 * 3600)
        (young,) = _bulk_insert(store, 1, age_s=60)
        service = TableService(store, fast_settings(heavy_workers=0, waiting_table_ttl_s=86400))
        await service.start()
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                statuses = {await _status(store, i) for i in old}
                if statuses == {"expired"}:
                    break
                await asyncio.sleep(0.05)
            assert statuses == {"expired"}
            listed = {t["id"] for t in await service.public_tables()}
            assert young in listed and not listed & set(old)
            summary = (await service.table(old[0])).summary()
            assert summary["status"] == "expired" and summary["version"] == 2
            with pytest.raises(ServiceError) as refused:
                await service.join(old[0], "p1", "ann")
            assert refused.value.code == "expired" and refused.value.status == 410
            assert (await service.table(old[0])).seats[0].kind == "open"  # nothing changed
            # the young table, followed in memory when it expires, is told so at once
            table = await service.table(young)
            assert table.status == "waiting"
            _key, listener = service.hub.subscribe(table, None)
            while not listener.queue.empty():
                listener.queue.get_nowait()
            assert await service.expire_waiting(ttl_s=0.0) == [young]
            assert table.status == "expired"
            frame = listener.queue.get_nowait()
            assert isinstance(frame, dict) and frame["state"]["status"] == "expired"
        finally:
            await service.close()
    finally:
        store.close()


# ------------------------------------------------------------------ item 8: database faults
class Lock:
    """Another connection holding the database's write lock (SQLite: ``BEGIN EXCLUSIVE``;
    PostgreSQL: ``LOCK TABLE`` on the tables a move writes), until released."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.conn: Any = None

    def take(self) -> None:
        if self.url.startswith("sqlite"):
            self.conn = sqlite3.connect(self.url.removeprefix("sqlite:///"), isolation_level=None)
            self.conn.execute("BEGIN EXCLUSIVE")
        else:
            import psycopg

            self.conn = psycopg.connect(self.url.replace("postgresql+psycopg", "postgresql"))
            self.conn.execute("LOCK TABLE game_tables, seats, actions IN ACCESS EXCLUSIVE MODE")

    def release(self) -> None:
        if self.conn is not None:
            self.conn.rollback()
            self.conn.close()
            self.conn = None


@pytest.fixture
def fragile(database_url: str, bot_pool: BotPool) -> Iterator[TestClient]:
    """The application with a short wait for database locks."""
    settings = fast_settings(database_url=database_url, db_busy_timeout_s=0.3)
    app = create_app(settings, pool=bot_pool)
    with TestClient(app, base_url="http://testserver", raise_server_exceptions=False) as client:
        yield client


def test_locked_database_answers_503_json_and_recovers(
    fragile: TestClient, database_url: str
) -> None:
    """A write while another connection holds the database's lock: 503 in the error shape
    with ``Retry-After``, nothing changed; once the lock is gone the same write succeeds."""
    table = new_table(fragile, game=two_player(), players=2)
    lock = Lock(database_url)
    lock.take()
    safety = threading.Timer(8.0, lock.release)  # the old server waits for ever on PostgreSQL
    safety.start()
    try:
        for answer in (
            fragile.post(f"/api/tables/{table['id']}/join", json={"seat": "p1", "nickname": "a"}),
            fragile.post("/api/tables", json={"game": two_player(), "players": 2}),
        ):
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"]["code"] == "unavailable"
            assert int(answer.headers["retry-after"]) >= 1
    finally:
        safety.cancel()
        lock.release()
    assert fragile.get(f"/api/tables/{table['id']}").json()["seats"][0]["kind"] == "open"
    token = join(fragile, table["id"], "p1", "a")
    assert token


def test_live_intent_on_a_locked_database_gets_an_unavailable_frame(
    fragile: TestClient, database_url: str
) -> None:
    """Over the live socket the same fault is an ``unavailable`` error frame; the
    connection stays, and the intent goes through once the lock is gone."""
    table = new_table(fragile, game=two_player(), players=2)
    tokens = [join(fragile, table["id"], s, s) for s in ("p1", "p2")]
    state = fragile.get(f"/api/tables/{table['id']}/state", headers=auth(tokens[0])).json()
    seat = int(state["state"]["to_act"][0][1:]) - 1
    sync = fragile.get(f"/api/tables/{table['id']}/state", headers=auth(tokens[seat])).json()
    intent = {
        "type": "intent",
        "action": sync["state"]["legal"][0],
        "version": sync["version"],
        "client_id": "c1",
    }
    with fragile.websocket_connect(f"/api/tables/{table['id']}/live") as ws:
        hello(ws, tokens[seat])
        lock = Lock(database_url)
        lock.take()
        safety = threading.Timer(8.0, lock.release)
        safety.start()
        try:
            ws.send_json(intent)
            got = until(ws, lambda f: f.get("type") in ("error", "ack"))
            assert got["type"] == "error" and got["code"] == "unavailable", got
        finally:
            safety.cancel()
            lock.release()
        ws.send_json(intent)
        got = until(ws, lambda f: f.get("type") in ("error", "ack"))
        assert got == {"type": "ack", "version": sync["version"] + 1, "client_id": "c1"}


def test_readiness_follows_the_database(fragile: TestClient, database_url: str) -> None:
    """``/api/health/ready`` is 503 while the database cannot take a move (SQLite: locked;
    PostgreSQL: not accepting connections), 200 before and after; ``/api/health/live`` and
    ``/api/health`` answer throughout."""
    assert fragile.get("/api/health/ready").status_code == 200
    if database_url.startswith("sqlite"):
        lock = Lock(database_url)
        lock.take()
        release = lock.release
    else:
        release = _refuse_connections(database_url)
    try:
        answer = fragile.get("/api/health/ready")
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"]["code"] == "unavailable"
        assert int(answer.headers["retry-after"]) >= 1
        assert fragile.get("/api/health/live").status_code == 200
        assert fragile.get("/api/health").json()["status"] == "ok"
    finally:
        release()
    deadline = time.monotonic() + 10
    while fragile.get("/api/health/ready").status_code != 200 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert fragile.get("/api/health/ready").json()["status"] == "ready"


def _refuse_connections(url: str) -> Any:
    """Make the PostgreSQL database unreachable (no new connections, the open ones cut);
    returns what makes it reachable again."""
    import psycopg
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    name = parsed.database
    admin = parsed.set(database="postgres").render_as_string(hide_password=False)
    admin = admin.replace("postgresql+psycopg", "postgresql")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )

    def release() -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')

    return release


SERVE = [sys.executable, "-m", "decklab.cli", "serve"]


def test_corrupt_database_file_exits_2_with_one_line(tmp_path: Path) -> None:
    """A file that is not a database: ``decklab serve`` says so in one line and exits 2
    (a usage error), not 3 with a traceback."""
    bad = tmp_path / "garbage.sqlite3"
    bad.write_bytes(random.Random(5).randbytes(20000))
    done = subprocess.run(
        [*SERVE, "--port", "29999", "--database", f"sqlite:///{bad}"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DECKLAB_HOME": str(tmp_path)},
    )
    assert done.returncode == 2, done.stderr[-2000:]
    said = done.stderr.strip()
    assert "Traceback" not in said and len(said.splitlines()) == 1, said
    assert "not a database" in said and str(bad) in said
