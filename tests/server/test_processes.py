"""Two server processes on one PostgreSQL database: a move made through one reaches a
spectator connected to the other at once (LISTEN/NOTIFY), either accepts intents, and
the version check keeps them from both committing one version."""

from __future__ import annotations

import json
import time
import uuid
from contextlib import ExitStack
from pathlib import Path

import httpx
from websockets.sync.client import connect

from . import pgserver
from .games import two_player
from .serverproc import ForkedServer, ServerProcess


def _ws(stack: ExitStack, server: ForkedServer, table: str, token: str | None = None) -> object:
    ws = stack.enter_context(
        connect(f"ws://127.0.0.1:{server.port}/api/tables/{table}/live", open_timeout=10)
    )
    hello: dict[str, object] = {"type": "hello"}
    if token:
        hello["token"] = token
    ws.send(json.dumps(hello))
    assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
    assert json.loads(ws.recv(timeout=10))["type"] == "sync"
    return ws


def _two_people(base: str) -> tuple[str, list[str]]:
    """A table for two made through ``base``, both seats taken; its id and the tokens."""
    table = httpx.post(f"{base}/api/tables", json={"game": two_player(), "players": 2}).json()["id"]
    tokens = [
        httpx.post(
            f"{base}/api/tables/{table}/join", json={"seat": f"p{i}", "nickname": f"n{i}"}
        ).json()["token"]
        for i in (1, 2)
    ]
    return table, tokens


def _until(ws: object, wanted: str, timeout: float = 10.0) -> dict[str, object]:
    for _ in range(100):
        frame: dict[str, object] = json.loads(ws.recv(timeout=timeout))  # type: ignore[attr-defined]
        if frame["type"] == wanted:
            return frame
    raise AssertionError(f"no {wanted} frame")


def test_two_processes_share_tables(pg_server: pgserver.PgServer, tmp_path: Path) -> None:
    url = pg_server.create_database(f"t_{uuid.uuid4().hex[:12]}")
    a, b = ForkedServer(url, tmp_path / "a"), ForkedServer(url, tmp_path / "b")
    stack = ExitStack()
    try:
        a.start()
        b.start()
        table, tokens = _two_people(a.base)
        watcher = _ws(stack, b, table)  # a spectator on process B
        state = httpx.get(f"{a.base}/api/tables/{table}/state").json()["state"]
        seat = int(state["to_act"][0][1:]) - 1
        mine = httpx.get(
            f"{a.base}/api/tables/{table}/state",
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        ).json()
        player = _ws(stack, a, table, tokens[seat])  # the player on process A
        player.send(  # type: ignore[attr-defined]
            json.dumps(
                {
                    "type": "intent",
                    "action": mine["state"]["legal"][0],
                    "version": mine["version"],
                    "client_id": "a1",
                }
            )
        )
        assert _until(player, "ack")["version"] == mine["version"] + 1
        event = _until(watcher, "event", timeout=20)
        assert event["version"] == mine["version"] + 1 and event["log"]
        # process B accepts the next intent for the same table, and A's player sees it
        state = event["state"]
        assert isinstance(state, dict)
        nxt = int(state["to_act"][0][1:]) - 1
        theirs = httpx.get(
            f"{b.base}/api/tables/{table}/state", headers={"Authorization": f"Bearer {tokens[nxt]}"}
        ).json()
        body = {
            "action": theirs["state"]["legal"][0],
            "version": theirs["version"],
            "client_id": "b1",
        }
        answer = httpx.post(
            f"{b.base}/api/tables/{table}/actions",
            json=body,
            headers={"Authorization": f"Bearer {tokens[nxt]}"},
        )
        assert answer.status_code == 200, answer.text
        assert _until(player, "event", timeout=20)["version"] == theirs["version"] + 1
        # the same version through both processes: one is applied, the other is stale
        now = httpx.get(f"{a.base}/api/tables/{table}/state").json()["state"]
        who = int(now["to_act"][0][1:]) - 1
        legal = httpx.get(
            f"{a.base}/api/tables/{table}/state", headers={"Authorization": f"Bearer {tokens[who]}"}
        ).json()
        codes = []
        for server, cid in ((a, "x1"), (b, "x2")):
            intent = {
                "action": legal["state"]["legal"][0],
                "version": legal["version"],
                "client_id": cid,
            }
            codes.append(
                httpx.post(
                    f"{server.base}/api/tables/{table}/actions",
                    json=intent,
                    headers={"Authorization": f"Bearer {tokens[who]}"},
                ).status_code
            )
        assert sorted(codes) == [200, 409]
        detail = httpx.get(f"{b.base}/api/tables/{table}").json()
        assert detail["actions"] == 3 and detail["version"] == legal["version"] + 1
    finally:
        stack.close()
        a.stop()
        b.stop()


def test_bots_of_a_table_are_driven_by_one_process(
    pg_server: pgserver.PgServer, tmp_path: Path
) -> None:
    """A table of bots only, with two processes up: played to its end exactly once."""
    url = pg_server.create_database(f"t_{uuid.uuid4().hex[:12]}")
    a, b = ForkedServer(url, tmp_path / "a"), ForkedServer(url, tmp_path / "b")
    try:
        a.start()
        b.start()
        made = httpx.post(
            f"{b.base}/api/tables",
            json={"game": two_player(), "seats": [{"kind": "bot", "bot": "random"}] * 2},
        ).json()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            detail = httpx.get(f"{a.base}/api/tables/{made['id']}").json()
            if detail["status"] == "finished":
                break
            time.sleep(0.1)
        assert detail["status"] == "finished", (
            f"the bots made {detail['actions']} moves, then stopped"
        )

        # (the heavy workers start at a server's first heavy request: seconds when busy)
        record = httpx.get(f"{a.base}/api/tables/{made['id']}/record", timeout=120).json()
        from decklab.engine import records

        state, applied = records.replay(record)
        assert state.is_terminal() and applied == detail["actions"]
        assert detail["version"] == 1 + applied  # created, then one version per move: no duplicates
    finally:
        a.stop()
        b.stop()


def _hello(ws: object, token: str | None = None) -> str:
    """Say hello on a fresh connection; the id of the server process that holds it."""
    hello: dict[str, object] = {"type": "hello"}
    if token:
        hello["token"] = token
    ws.send(json.dumps(hello))  # type: ignore[attr-defined]
    welcome = json.loads(ws.recv(timeout=20))  # type: ignore[attr-defined]
    assert welcome["type"] == "welcome", welcome
    assert json.loads(ws.recv(timeout=20))["type"] == "sync"  # type: ignore[attr-defined]
    return str(welcome["process"])


def _one_on_each(
    stack: ExitStack, url: str, token: str | None, wait: float = 60.0
) -> dict[str, object]:
    """Connections as one viewer until two server processes hold one each (the kernel
    gives each new connection to whichever process sharing the port accepts first, so
    a busy process may miss several in a row). A connection to a process that already
    holds one is closed again."""
    held: dict[str, object] = {}
    tries = 0
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        tries += 1
        with ExitStack() as one:
            ws = one.enter_context(connect(url, open_timeout=20))
            process = _hello(ws, token)
            if process in held:
                time.sleep(0.02)
                continue  # closed on leaving
            held[process] = ws
            stack.push(one.pop_all())  # kept open until the test ends
        if len(held) == 2:
            return held
    raise AssertionError(f"{tries} connections all went to process(es) {sorted(held)}")


def _event_of(ws: object, version: int, timeout: float = 10.0) -> dict[str, object]:
    """The event of ``version`` on this connection. A process that learnt of the joins
    from the other one late may first send an ``update`` event of an earlier version
    (its copy caught up); events come in version order and none may be skipped."""
    for _ in range(100):
        frame = _until(ws, "event", timeout)
        got = frame["version"]
        assert isinstance(got, int)
        if got >= version:
            assert got == version, f"the event of version {version} never came (got {got})"
            return frame
    raise AssertionError(f"no event of version {version}")


def test_serve_processes_two_share_the_port(pg_server: pgserver.PgServer, tmp_path: Path) -> None:
    """``decklab serve --processes 2``: two processes behind one port; a spectator held
    by either process sees a move made through either, at once (LISTEN/NOTIFY)."""
    url = pg_server.create_database(f"t_{uuid.uuid4().hex[:12]}")
    server = ServerProcess(url, tmp_path, None, "--processes", "2")
    stack = ExitStack()
    try:
        server.start(wait=120)
        assert len(server.wait_for_processes(2)) == 2
        table, tokens = _two_people(server.base)
        live = f"ws://127.0.0.1:{server.port}/api/tables/{table}/live"
        watchers = _one_on_each(stack, live, None)
        players = [_one_on_each(stack, live, token) for token in tokens]
        processes = sorted(watchers)
        for mover in processes + processes:  # a move through each process, twice
            state = httpx.get(f"{server.base}/api/tables/{table}/state").json()
            seat = int(state["state"]["to_act"][0][1:]) - 1
            mine = httpx.get(
                f"{server.base}/api/tables/{table}/state",
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            ).json()
            ws = players[seat][mover]
            cid = f"{mover}-{mine['version']}"
            ws.send(  # type: ignore[attr-defined]
                json.dumps(
                    {
                        "type": "intent",
                        "action": mine["state"]["legal"][0],
                        "version": mine["version"],
                        "client_id": cid,
                    }
                )
            )
            assert _until(ws, "ack", timeout=20)["version"] == mine["version"] + 1
            for held_by, watcher in watchers.items():
                event = _event_of(watcher, mine["version"] + 1)
                assert event["log"], (
                    f"a move through process {mover} reached a spectator on {held_by} "
                    "without its log line"
                )
            for player in players:  # the other connections' copies of the event
                for other in player.values():
                    if other is not ws:
                        _event_of(other, mine["version"] + 1)
        detail = httpx.get(f"{server.base}/api/tables/{table}").json()
        assert detail["actions"] == 4
    except (AssertionError, TimeoutError) as exc:  # what the servers said, to see why
        raise AssertionError(f"{exc!r}\nserver log:\n{server.log.read_text()[-4000:]}") from exc
    finally:
        stack.close()
        server.stop()


def _notes(listener: object, wait: float) -> list[dict[str, object]]:
    """The notes on the channel within ``wait`` seconds (the listener's own connection)."""
    got = []
    for note in listener.notifies(timeout=wait):  # type: ignore[attr-defined]
        got.append(json.loads(note.payload))
    return got


def _move(base: str, table: str, tokens: list[str], cid: str) -> int:
    """The seat to act plays its first legal move through ``base``; the new version."""
    state = httpx.get(f"{base}/api/tables/{table}/state").json()["state"]
    token = tokens[int(state["to_act"][0][1:]) - 1]
    mine = httpx.get(
        f"{base}/api/tables/{table}/state", headers={"Authorization": f"Bearer {token}"}
    ).json()
    body = {"action": mine["state"]["legal"][0], "version": mine["version"], "client_id": cid}
    answer = httpx.post(
        f"{base}/api/tables/{table}/actions",
        json=body,
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200, answer.text
    return int(answer.json()["version"])


def test_a_lone_process_keeps_its_notes_until_another_is_heard(
    pg_server: pgserver.PgServer, tmp_path: Path
) -> None:
    """Alone on its database a process sends no NOTIFY per move, only its ``here`` every
    2 s; once another process is heard it announces the tables it changed meanwhile (at
    their current versions), and every change after that."""
    import psycopg

    from decklab.server.pg_coordination import STARTUP_S, libpq_url

    url = pg_server.create_database(f"t_{uuid.uuid4().hex[:12]}")
    a = ForkedServer(url, tmp_path / "a")
    with psycopg.connect(libpq_url(url), autocommit=True) as listener:
        listener.execute("LISTEN decklab")
        try:
            a.start()
            started = time.monotonic()
            table, tokens = _two_people(a.base)
            # just started, it announces everything (others may not have said "here"
            # yet); alone past that, it keeps its notices to itself
            time.sleep(max(0.0, started + STARTUP_S + 0.5 - time.monotonic()))
            _notes(listener, 0.1)
            version = 0
            for i in range(3):
                version = _move(a.base, table, tokens, f"m{i}")
            quiet = _notes(listener, 2.5)
            assert {n["kind"] for n in quiet} == {"here"}, quiet  # only "I am here"
            # somebody else speaks up: the tables changed in silence are told at once
            listener.execute(
                "SELECT pg_notify('decklab', %s)",
                (json.dumps({"origin": "the-test", "kind": "here"}),),
            )
            told = [n for n in _notes(listener, 3.0) if n["kind"] == "version"]
            assert told and told[0]["table"] == table, told
            assert told[0]["payload"] == {"version": version}
            # ... and from now on every change, as it happens
            after = _move(a.base, table, tokens, "m9")
            news = [n for n in _notes(listener, 3.0) if n["kind"] == "version"]
            assert [n["payload"] for n in news] == [{"version": after}]
        finally:
            a.stop()
