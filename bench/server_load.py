"""Load on the live server: N concurrent tables on loopback, scripted WebSocket clients.

Each table is a two-person game with both seats held by scripted clients (one
WebSocket each). Once a second per table, the seat to act sends an intent with
a random legal action; the latency of a move is the time from sending the intent
to the moment the event with its version has reached *every* seat of the table.
Reported per N and database: moves per second, p50/p99 latency, and the server's
CPU use (user+system seconds per wall second, from /proc).

The peer measured in the same run is a bare broadcast server on the same stack
(uvicorn + Starlette WebSockets, no engine, no database): each intent is echoed
to the table's two connections. The ratio of decklab's latency to the peer's says
what the game, the view building and the durable commit cost on top of the
transport, independently of how loaded the machine is.

By default the seats are people's accounts (``--guests``: guests, as before issue 21):
``--accounts`` people sign up over REST (each from an address of its own, through the
server's trusted proxy on loopback), pairs of them make the tables and join them logged
in (cookie, CSRF header), and each logs in again as a second device and plays with
the seat tokens its "my games" lists. ``--idle N`` first makes N turn-based tables
whose seats are taken and whose person to move waits (a month a move), then leaves
the server alone: its CPU at rest, before and with them, and its memory per table.

    .venv/bin/python bench/server_load.py --tables 50,100,200,500 --seconds 10 --db sqlite,postgresql
    .venv/bin/python bench/server_load.py --tables 500 --idle 10000 --db sqlite
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PEER = """
import json
import multiprocessing
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute, Route
from starlette.responses import JSONResponse
TABLES = {}
async def health(request):
    return JSONResponse({"status": "ok"})
async def live(ws):
    await ws.accept()
    table = ws.path_params["table"]
    TABLES.setdefault(table, set()).add(ws)
    version = 0
    try:
        while True:
            message = json.loads(await ws.receive_text())
            version = message["version"] + 1
            frame = json.dumps({"type": "event", "version": version, "state": {
                "legal": ["x"], "to_act": ["p1", "p2"], "status": "playing"}})
            for other in list(TABLES[table]):
                await other.send_text(frame)
    except Exception:
        TABLES[table].discard(ws)
app = Starlette(routes=[Route("/api/health", health), WebSocketRoute("/live/{table}", live)])
"""


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its children so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / ticks


def tree(pid: int) -> list[int]:
    """The process and all its descendants (``--processes N`` workers, bot workers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo.extend(children.get(current, []))
    return out


def tree_cpu(pid: int) -> float:
    total = 0.0
    for member in tree(pid):
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += cpu_seconds(member)
    return total


def run_queue_wait(pid: int) -> float:
    """Seconds the threads of the process tree have spent runnable but waiting for a CPU
    (the kernel's schedstat): the time a busy machine takes from a server that wants to
    run."""
    total = 0
    for member in tree(pid):
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{member}/task").iterdir():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def free_port() -> int:
    from tests.server.serverproc import free_port as pick

    return pick()


def wait_up(base: str, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if proc.poll() is not None:
            raise RuntimeError("the server exited")
        try:
            if httpx.get(f"{base}/api/health", timeout=0.5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the server did not start")


@dataclass
class TableRun:
    table: str
    tokens: list[str]
    conns: list[ClientConnection] = field(default_factory=list)
    version: int = 0
    legal: dict[int, list[str]] = field(default_factory=dict)
    to_act: list[int] = field(default_factory=list)
    seen: dict[int, list[float]] = field(default_factory=dict)
    sent_at: dict[int, float] = field(default_factory=dict)
    finished: bool = False
    errors: list[str] = field(default_factory=list)


@dataclass
class Tally:
    """What one client process measured: per move (table, version, sent, first seat
    reached, last seat reached), event-frame sizes, and its own event loop's lateness."""

    moves: list[tuple[str, int, float, float, float]] = field(default_factory=list)
    frame_bytes: list[int] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    sent: int = 0


async def reader(run: TableRun, seat: int, tally: Tally) -> None:
    ws = run.conns[seat]
    async for raw in ws:
        got = time.monotonic()
        frame = json.loads(raw)
        kind = frame.get("type")
        if kind == "ping":
            await ws.send('{"type":"pong"}')
            continue
        if kind == "error":
            run.errors.append(frame.get("code", "?"))
            run.sent_at.clear()  # that intent is not coming back as an event
        state = frame.get("state")
        if kind in {"event", "sync"} and state is not None:
            if kind == "event":
                tally.frame_bytes.append(len(raw))
            version = frame["version"]
            run.legal[seat] = state["legal"]
            if version >= run.version:
                run.version = version
                run.to_act = [int(s[1:]) - 1 for s in state["to_act"]]
                run.finished = state["status"] == "finished"
            seen = run.seen.setdefault(version, [])
            seen.append(got)
            if len(seen) == len(run.conns) and version in run.sent_at:
                sent = run.sent_at.pop(version)
                tally.moves.append((run.table, version, sent, min(seen), max(seen)))
                del run.seen[version]


async def drive(run: TableRun, rng: random.Random, until: float, tally: Tally) -> None:
    """Once a second, the seat to act plays a random legal move — unless the table's
    previous move has not reached every seat yet (one intent in flight per table)."""
    await asyncio.sleep(rng.random())
    while time.monotonic() < until and not run.finished:
        start = time.monotonic()
        seats = [s for s in run.to_act if run.legal.get(s)]
        if seats and not run.sent_at:
            seat = rng.choice(seats)
            intent = {
                "type": "intent",
                "action": rng.choice(run.legal[seat]),
                "version": run.version,
                "client_id": f"{run.table}-{run.version}-{rng.random()}",
            }
            run.sent_at[run.version + 1] = time.monotonic()
            await run.conns[seat].send(json.dumps(intent))
            tally.sent += 1
        await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - start)))


async def lag_probe(tally: Tally, until: float, every_s: float = 0.01) -> None:
    """How late this client's event loop wakes a task: if it is late, so are its stamps."""
    while time.monotonic() < until:
        due = time.monotonic() + every_s
        await asyncio.sleep(every_s)
        tally.lag.append(time.monotonic() - due)


PASSWORD = "a long bench passphrase"
KEEP_ALIVE = httpx.Limits(keepalive_expiry=2.0)
"""A connection idle for 2 s is closed by the client, before uvicorn's 5 s keep-alive
closes it under a request just sent on it (a person waits for the others' sign-ups)."""


@dataclass
class Person:
    """A scripted person with an account: the address they come from
    (``X-Forwarded-For``, believed because the bench's server trusts loopback as its
    proxy: the per-address sign-up limit then counts each person once, as in production
    behind a reverse proxy), their session cookies on the device they signed up with and
    on a second device, and the CSRF token their page sends. Their HTTP clients are
    opened per phase (:func:`opened`): each phase runs in an event loop of its own."""

    username: str
    address: str
    cookies: httpx.Cookies = field(default_factory=httpx.Cookies)
    csrf: str = ""
    device: httpx.Cookies | None = None
    """The second device's cookies, once it has logged in."""
    http: httpx.AsyncClient | None = None

    def client(self, base: str, cookies: httpx.Cookies) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=base,
            timeout=120,
            headers={"x-forwarded-for": self.address, "origin": base},
            cookies=cookies,
            limits=KEEP_ALIVE,
        )

    def page(self) -> dict[str, str]:
        """The headers a logged-in page of the site sends with a change."""
        return {"x-csrf-token": self.csrf}


@contextlib.asynccontextmanager
async def opened(base: str, people: list[Person] | None) -> Any:
    """Each person's client on their first device, for one phase."""
    for person in people or []:
        person.http = person.client(base, person.cookies)
    try:
        yield
    finally:
        for person in people or []:
            if person.http is not None:
                person.cookies = httpx.Cookies(person.http.cookies)
                await person.http.aclose()
                person.http = None


async def sign_up(base: str, count: int) -> list[Person]:
    """``count`` accounts, each signed up (logged in at once) from an address of its own;
    a few at a time (an argon2id hash takes 64 MiB and tens of ms)."""
    tag = f"{random.randrange(36**4):04x}"
    gate = asyncio.Semaphore(4)

    async def one(k: int) -> Person:
        person = Person(f"load{tag}n{k}", f"10.{k // 65536 % 256}.{k // 256 % 256}.{k % 256}")
        async with gate, person.client(base, person.cookies) as http:
            answer = await http.post(
                "/api/account/signup", json={"username": person.username, "password": PASSWORD}
            )
            if answer.status_code != 201:
                raise RuntimeError(f"sign-up refused: {answer.status_code} {answer.text}")
            person.csrf = answer.json()["csrf"]
            person.cookies = httpx.Cookies(http.cookies)
        return person

    return list(await asyncio.gather(*(one(k) for k in range(count))))


async def make_tables(
    base: str,
    tables: int,
    game: str,
    peer: bool,
    people: list[Person] | None = None,
    turn_s: float | None = None,
    parallel: int = 16,
) -> list[tuple[str, list[str]]]:
    """The tables (id, seat tokens) the clients will play, made over REST, ``parallel``
    at a time. With ``people`` (accounts), table k is made by one person of a pair and
    each of the pair takes a seat logged in (the seats are the accounts'); else two
    guests take them. ``turn_s``: a turn-based table with that long for each move."""
    if peer:
        return [(f"t{k}", ["", ""]) for k in range(tables)]
    gate = asyncio.Semaphore(parallel)
    body: dict[str, Any] = {"game": game, "players": 2, "public": False}
    if turn_s is not None:
        body["turn"] = {"move_s": turn_s, "on_deadline": "bot"}
    pairs = len(people) // 2 if people else 0
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=KEEP_ALIVE) as guest:

        async def post(who: Person | None, path: str, payload: dict[str, Any]) -> Any:
            http, headers = (
                (guest, {}) if who is None or who.http is None else (who.http, who.page())
            )
            answer = await http.post(path, json=payload, headers=headers)
            if answer.status_code >= 300:
                raise RuntimeError(f"{path}: {answer.status_code} {answer.text}")
            return answer.json()

        async def one(k: int) -> tuple[str, list[str]]:
            seated: list[Person | None] = [None, None]
            if people:
                seated = [people[2 * (k % pairs)], people[2 * (k % pairs) + 1]]
            async with gate:
                table = (await post(seated[0], "/api/tables", body))["id"]
                tokens = []
                for seat, who in zip(("p1", "p2"), seated, strict=True):
                    joined = await post(
                        who, f"/api/tables/{table}/join", {"seat": seat, "nickname": seat}
                    )
                    tokens.append(joined["token"])
                return table, tokens

        return list(await asyncio.gather(*(one(k) for k in range(tables))))


async def play_slice(
    ws_base: str,
    tables: list[tuple[str, list[str]]],
    start_at: float,
    seconds: float,
    peer: bool,
    seed: int,
) -> dict[str, Any]:
    """One client process's share of the tables: connect, play from ``start_at`` (wall
    clock, the same for every process) for ``seconds``, and say what it measured."""
    rng = random.Random(seed)
    runs = [TableRun(table, tokens) for table, tokens in tables]
    tally = Tally()
    readers = []
    for run in runs:
        for seat, token in enumerate(run.tokens):
            url = (
                f"{ws_base}/live/{run.table}" if peer else f"{ws_base}/api/tables/{run.table}/live"
            )
            ws = await connect(url, open_timeout=60, max_size=2**22)
            run.conns.append(ws)
            if peer:
                run.legal[seat] = ["x"]
                run.to_act = [0, 1]
            else:
                await ws.send(json.dumps({"type": "hello", "token": token}))
            readers.append(asyncio.create_task(reader(run, seat, tally)))
    await asyncio.sleep(max(0.0, start_at - time.time()))
    cpu0 = time.process_time()
    started = time.monotonic()
    until = started + seconds
    probe = asyncio.create_task(lag_probe(tally, until))
    await asyncio.gather(*(drive(run, rng, until, tally) for run in runs))
    await asyncio.sleep(0.5)  # the last intents' events
    await probe
    cpu = time.process_time() - cpu0
    for task in readers:
        task.cancel()
    for run in runs:
        for ws in run.conns:
            await ws.close()
    return {
        "moves": tally.moves,
        "sent": tally.sent,
        "started": started,
        "seconds": seconds,
        "cpu": cpu / (time.monotonic() - started),
        "lag": tally.lag,
        "frame_bytes": tally.frame_bytes,
        "errors": [c for r in runs for c in r.errors],
    }


def _slice_main(args: tuple[str, list[tuple[str, list[str]]], float, float, bool, int]) -> Any:
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    return asyncio.run(play_slice(*args))


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    idle = values[3] + values[4]
    return (sum(values) - idle) / ticks, sum(values) / ticks


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def load(
    ws_base: str,
    made: list[tuple[str, list[str]]],
    seconds: float,
    peer: bool,
    clients: int,
    server_pid: int,
    spy: Path | None = None,
) -> dict[str, Any]:
    tables = len(made)
    parts = [made[k::clients] for k in range(clients)]
    start_at = time.time() + 2.0 + tables / 100
    jobs = [
        (ws_base, part, start_at, seconds, peer, tables * 100 + k)
        for k, part in enumerate(parts)
        if part
    ]
    with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
        pending = pool.map_async(_slice_main, jobs)
        # The server's and the machine's CPU over the play window only (not the set-up).
        time.sleep(max(0.0, start_at - time.time()))
        cpu0, busy0, t0 = tree_cpu(server_pid), machine_busy()[0], time.monotonic()
        wait0 = run_queue_wait(server_pid)
        profiler = None
        if spy is not None:  # py-spy (pip install py-spy) samples the server meanwhile
            profiler = subprocess.Popen(
                [
                    "py-spy",
                    "record",
                    "--pid",
                    str(server_pid),
                    "--duration",
                    str(int(seconds)),
                    "--threads",
                    "--nonblocking",
                    "-f",
                    "raw",
                    "-o",
                    str(spy),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        time.sleep(seconds)
        if profiler is not None:
            profiler.wait(seconds + 30)
        window = time.monotonic() - t0
        server_cpu = (tree_cpu(server_pid) - cpu0) / window
        server_wait = (run_queue_wait(server_pid) - wait0) / window
        busy = (machine_busy()[0] - busy0) / window
        got = pending.get()
    started = min(g["started"] for g in got)
    # A move counts if its intent was sent inside the window: the rate is per table-second.
    moves = [m for g in got for m in g["moves"] if m[2] <= started + seconds]
    lat = [m[4] - m[2] for m in moves]
    errors = [c for g in got for c in g["errors"]]
    lag = [x for g in got for x in g["lag"]]
    frame_bytes = [x for g in got for x in g["frame_bytes"]]
    client_cpu = sum(g["cpu"] for g in got)
    return {
        "tables": tables,
        "clients": len(jobs),
        "moves": len(lat),
        "moves_per_s": len(lat) / seconds,
        "p50_ms": _ms(pct(lat, 0.5)),
        "p99_ms": _ms(pct(lat, 0.99)),
        "max_ms": _ms(max(lat)) if lat else None,
        "sent": sum(g["sent"] for g in got),
        "server_cpu": server_cpu,
        "server_cpu_ms_per_move": 1000 * server_cpu * seconds / max(1, len(lat)),
        "server_run_queue_wait": server_wait,
        "client_cpu": client_cpu,
        "machine_busy_cores": busy,
        "others_cores": max(0.0, busy - server_cpu - client_cpu),
        "client_lag_p50_ms": _ms(pct(lag, 0.5)),
        "client_lag_p99_ms": _ms(pct(lag, 0.99)),
        "event_frame_bytes": statistics.mean(frame_bytes) if frame_bytes else None,
        "errors": len(errors),
        "error_codes": sorted(set(errors)),
        "_moves": moves,
        "window_start": started,
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else 1000 * seconds


PHASES = (
    ("to_server", "sent", "received"),
    ("validate", "received", "validated"),
    ("commit", "validated", "committed"),
    ("fan_out", "committed", "queued"),
    ("write", "queued", "sent_event"),
    ("to_clients", "sent_event", "reached"),
)
"""The steps of a move, each from one stamp to the next: the client sends the intent;
the server reads it, validates it with the engine (after the table's lock), commits it
(group commit), builds and queues every listener's frame, its connections' writers
send them; the last seat's client reads it."""


def breakdown(
    moves: list[tuple[str, int, float, float, float]],
    traces: list[Path],
    window: tuple[float, float],
) -> dict[str, Any]:
    """Where a move's time goes: p50/p99 of each phase, joining the clients' stamps with
    the server's (the same monotonic clock), plus the server's own event-loop lateness
    and its group-commit batches."""
    data: dict[str, list[Any]] = {"events": [], "loop_lag": [], "batches": [], "collections": []}
    for trace in traces:  # one per server process
        got = json.loads(trace.read_text())
        for key, rows in data.items():
            rows.extend(got.get(key, []))
    stamps: dict[tuple[str, int], dict[str, list[float]]] = {}
    for e in data["events"]:  # a move's stamps may come from two processes
        merged = stamps.setdefault((e["table"], e["version"]), {})
        for phase, times in e.items():
            if phase not in {"table", "version"}:
                merged.setdefault(phase, []).extend(times)
    spans: dict[str, list[float]] = {name: [] for name, _, _ in PHASES}
    for table, version, sent, _first, last in moves:
        server = stamps.get((table, version))
        if server is None or not all(
            k in server for k in ("received", "validated", "committed", "queued", "sent_event")
        ):
            continue
        at = {
            "sent": sent,
            "received": server["received"][0],
            "validated": server["validated"][0],
            "committed": server["committed"][0],
            "queued": server["queued"][0],
            "sent_event": max(server["sent_event"]),
            "reached": last,
        }
        for name, a, b in PHASES:
            spans[name].append(at[b] - at[a])
    lag = [late for at, late in data["loop_lag"] if window[0] <= at <= window[1]]
    batches = [b for b in data["batches"] if window[0] <= b[0] <= window[1]]
    pauses = [p for at, p in data["collections"] if window[0] <= at <= window[1]]
    return {
        "phases_ms": {
            name: {"p50": _ms(pct(v, 0.5)), "p99": _ms(pct(v, 0.99))} for name, v in spans.items()
        },
        "traced_moves": len(spans["commit"]),
        "server_lag_p50_ms": _ms(pct(lag, 0.5)),
        "server_lag_p99_ms": _ms(pct(lag, 0.99)),
        "batch_mean": statistics.mean(b[1] for b in batches) if batches else None,
        "batches_per_s": len(batches) / (window[1] - window[0]),
        "batch_p99_ms": _ms(pct([b[2] for b in batches], 0.99)),
        "full_collections": len(pauses),
        "full_collection_max_ms": _ms(max(pauses)) if pauses else None,
    }


def start_decklab(
    database: str, home: Path, extra: list[str]
) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "DECKLAB_HOME": str(home), "DECKLAB_TRACE": str(home / "trace-{pid}.json")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "decklab.cli",
            "serve",
            "--port",
            str(port),
            "--database",
            database,
            "--tables-per-minute",
            "100000",
            # every scripted client comes from loopback: one address for thousands of people
            "--connections-per-address",
            "100000",
            "--messages-per-address",
            "10000000",
            "--joins-per-minute",
            "100000",
            "--log-level",
            "warning",
            *extra,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(home / "server.log", "ab"),  # noqa: SIM115 - closed with the process
    )
    wait_up(f"http://127.0.0.1:{port}", proc)
    if "--processes" in extra:  # every worker up before the tables are made
        wanted = int(extra[extra.index("--processes") + 1])
        seen: set[str] = set()
        deadline = time.monotonic() + 180
        while len(seen) < wanted and time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                answer = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
                seen.add(answer.json()["process"])
            time.sleep(0.05)
    return proc, port


def start_peer(home: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    (home / "peer_app.py").write_text(PEER)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "peer_app:app",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=home,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_up(f"http://127.0.0.1:{port}", proc)
    return proc, port


TURN_S = 30 * 24 * 3600.0
"""The idle tables' time per move: the longest a table may give (nothing falls due)."""


def rss_kb(pid: int) -> int:
    """Resident memory of one process (kB, ``VmRSS``)."""
    for text in Path(f"/proc/{pid}/status").read_text().splitlines():
        if text.startswith("VmRSS:"):
            return int(text.split()[1])
    return 0


def tree_rss_kb(pid: int) -> int:
    total = 0
    for member in tree(pid):
        with contextlib.suppress(OSError, ValueError):
            total += rss_kb(member)
    return total


async def idle_phase(
    base: str,
    server_pid: int,
    count: int,
    game: str,
    people: list[Person] | None,
    seconds: float,
    parallel: int,
) -> dict[str, Any]:
    """Make ``count`` turn-based tables whose seats are taken and whose person to move
    does not move (a month a move), then leave the server alone for ``seconds``: its
    CPU over that window, and its memory after the tables against before."""
    await asyncio.sleep(2.0)  # the sign-ups' hashing threads settle
    rss0, main0 = tree_rss_kb(server_pid), rss_kb(server_pid)
    # the same server at rest before the tables: what it costs with none
    cpu0, w0 = tree_cpu(server_pid), time.monotonic()
    await asyncio.sleep(seconds)
    empty_cpu = (tree_cpu(server_pid) - cpu0) / (time.monotonic() - w0)
    t0, made_cpu0 = time.monotonic(), tree_cpu(server_pid)
    # in two halves: the second half's growth is the cost of a table once the server's
    # caches and pools are warm (the first tables also pay for those)
    async with opened(base, people):
        made = await make_tables(base, count // 2, game, False, people, TURN_S, parallel)
        await asyncio.sleep(1.0)
        rss_half = tree_rss_kb(server_pid)
        made += await make_tables(base, count - count // 2, game, False, people, TURN_S, parallel)
    made_s = time.monotonic() - t0 - 1.0
    made_cpu = tree_cpu(server_pid) - made_cpu0
    await asyncio.sleep(2.0)  # the last requests' work done
    rss1, main1 = tree_rss_kb(server_pid), rss_kb(server_pid)
    cpu0, main_cpu0, busy0 = tree_cpu(server_pid), cpu_seconds(server_pid), machine_busy()[0]
    w0 = time.monotonic()
    await asyncio.sleep(seconds)
    window = time.monotonic() - w0
    cpu = (tree_cpu(server_pid) - cpu0) / window
    main_cpu = (cpu_seconds(server_pid) - main_cpu0) / window
    busy = (machine_busy()[0] - busy0) / window
    rss2 = tree_rss_kb(server_pid)
    # one of them, as anyone sees it: turn-based, both seats taken, a deadline running
    async with httpx.AsyncClient(base_url=base, timeout=60) as look:
        summary = (await look.get(f"/api/tables/{made[0][0]}")).json()
    return {
        "idle_tables": count,
        "idle_made_s": made_s,
        "idle_tables_per_s": count / made_s,
        "idle_made_server_cpu_ms_per_table": 1000 * made_cpu / count,
        "idle_window_s": window,
        "idle_window_start": w0,
        "idle_server_cpu": cpu,
        "idle_server_cpu_without_tables": empty_cpu,
        "idle_server_main_cpu": main_cpu,
        "idle_machine_busy_cores": busy,
        "idle_rss_before_mb": rss0 / 1024,
        "idle_rss_after_mb": rss1 / 1024,
        "idle_rss_after_window_mb": rss2 / 1024,
        "idle_rss_main_before_mb": main0 / 1024,
        "idle_rss_main_after_mb": main1 / 1024,
        "idle_kb_per_table": (rss1 - rss0) / count,
        "idle_kb_per_table_second_half": (rss1 - rss_half) / max(1, count - count // 2),
        "idle_sample": {
            "status": summary["status"],
            "turn": summary["turn"],
            "seats": [(s["kind"], s["nickname"]) for s in summary["seats"]],
        },
    }


async def seats_from_another_device(
    base: str, people: list[Person], made: list[tuple[str, list[str]]]
) -> list[tuple[str, list[str]]]:
    """Each person logs in again on a second device (once) and takes the seat tokens from
    "my games": the tables are played with those, so the seats the clients hold are the
    accounts' own, followed from device to device."""
    held: dict[tuple[str, str], str] = {}
    gate = asyncio.Semaphore(4)

    async def one(person: Person) -> None:
        async with person.client(base, person.device or httpx.Cookies()) as device:
            if person.device is None:
                async with gate:
                    answer = await device.post(
                        "/api/account/login",
                        json={"username": person.username, "password": PASSWORD},
                    )
                if answer.status_code != 200:
                    raise RuntimeError(f"login refused: {answer.status_code} {answer.text}")
                person.device = httpx.Cookies(device.cookies)
            games = (await device.get("/api/me/games")).json()
            for entry in games["active"]:
                held[(entry["table"], entry["seat"])] = entry["token"]

    await asyncio.gather(*(one(person) for person in people))
    followed = []
    for table, tokens in made:
        mine = [held.get((table, seat)) for seat in ("p1", "p2")]
        if mine != tokens:
            raise RuntimeError(f"table {table}: the seats did not follow their accounts")
        followed.append((table, [t for t in mine if t is not None]))
    return followed


async def live_tables(
    base: str, tables: int, game: str, peer: bool, people: list[Person] | None, parallel: int
) -> list[tuple[str, list[str]]]:
    """The tables to play (no clock, not turn-based), their seats' tokens."""
    async with opened(base, people):
        made = await make_tables(base, tables, game, peer, people, None, parallel)
    if people:
        made = await seats_from_another_device(base, people, made)
    return made


def collections_at_rest(traces: list[Path], got: dict[str, Any]) -> dict[str, Any]:
    """The server's scheduled full garbage collections (:mod:`decklab.server.heap`, one
    every 300 s) that fell in the window at rest: each walks every table held, so one
    that falls in a 20 s window shows in its CPU. Their pauses (wall time, at least
    their CPU) are taken out for the rate between them."""
    start = got["idle_window_start"]
    end = start + got["idle_window_s"]
    pauses = []
    for trace in traces:
        for at, pause in json.loads(trace.read_text()).get("collections", []):
            if start <= at <= end:
                pauses.append(pause)
    spent = got["idle_server_cpu"] * got["idle_window_s"] - sum(pauses)
    return {
        "idle_full_collections": len(pauses),
        "idle_full_collection_ms": [1000 * p for p in pauses],
        "idle_server_cpu_between_collections": max(0.0, spent) / got["idle_window_s"],
    }


def measure(
    kind: str,
    database: str | None,
    sizes: list[int],
    seconds: float,
    game: str,
    clients: int,
    extra: list[str],
    spy: Path | None = None,
    accounts: int = 0,
    idle: int = 0,
    idle_seconds: float = 20.0,
    parallel: int = 16,
) -> list[dict[str, Any]]:
    """One server: its accounts and idle tables made once, then for each size in turn
    that many live tables played (those of an earlier size stay, at rest: the bench's
    server gives an away seat a day before a bot takes it)."""
    home = Path(tempfile.mkdtemp(prefix="decklab-load-"))
    if kind == "peer":
        proc, port = start_peer(home)
    else:
        assert database is not None
        # the scripted people come through "a proxy" on loopback, each from its own address
        more = ["--trusted-proxy", "127.0.0.1", "--grace", "86400"]
        proc, port = start_decklab(database, home, [*extra, *more])
    base = f"http://127.0.0.1:{port}"
    results: list[dict[str, Any]] = []
    try:
        report: dict[str, Any] = {"accounts": accounts if kind != "peer" else 0}
        people = None
        if accounts and kind != "peer":
            t0 = time.monotonic()
            people = asyncio.run(sign_up(base, accounts))
            report["signup_s"] = time.monotonic() - t0
        if idle and kind != "peer":
            report |= asyncio.run(
                idle_phase(base, proc.pid, idle, game, people, idle_seconds, parallel)
            )
        for n in sizes:
            made = asyncio.run(live_tables(base, n, game, kind == "peer", people, parallel))
            result = load(
                f"ws://127.0.0.1:{port}", made, seconds, kind == "peer", clients, proc.pid, spy
            )
            before = sum(sizes[: len(results)])
            results.append(result | report | {"server": kind, "live_before": before})
    finally:
        proc.terminate()
        proc.wait(30)
    traces = sorted(home.glob("trace-*.json"))
    if idle and traces and results:
        results[0] |= collections_at_rest(traces, results[0])
    for result in results:
        moves = result.pop("_moves")
        if kind != "peer" and traces:
            window = (result["window_start"], result["window_start"] + seconds)
            result.update(breakdown(moves, traces, window))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50,100,200,500")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--db",
        default="sqlite,postgresql",
        help="databases to measure; postgresql:N runs decklab serve --processes N",
    )
    parser.add_argument(
        "--clients", type=int, default=2, help="client processes the tables are spread over"
    )
    parser.add_argument("--no-peer", action="store_true", help="skip the bare broadcast peer")
    parser.add_argument(
        "--serve-arg",
        action="append",
        default=[],
        help="one more argument for decklab serve (repeatable), e.g. --serve-arg=--processes=2",
    )
    parser.add_argument(
        "--py-spy",
        type=Path,
        default=None,
        help="a folder: sample the server with py-spy during each run (raw stacks)",
    )
    parser.add_argument(
        "--accounts",
        type=int,
        default=40,
        help="people with accounts who sign up, make the tables and sit at them (in pairs); "
        "each logs in again as another device and plays with the seats its games list",
    )
    parser.add_argument(
        "--guests", action="store_true", help="guests take the seats instead (no accounts)"
    )
    parser.add_argument(
        "--idle",
        default="0",
        help="turn-based tables made first and left at rest (seats taken, nobody moves); "
        "a list (0,10000) measures each on a fresh server",
    )
    parser.add_argument(
        "--idle-seconds",
        type=float,
        default=20.0,
        help="how long the server is left alone with the idle tables, CPU measured",
    )
    parser.add_argument(
        "--same-server",
        action="store_true",
        help="one server per database plays the --tables sizes in turn (its accounts and "
        "idle tables made once; each size's live tables stay, at rest, for the next)",
    )
    parser.add_argument("--parallel", type=int, default=16, help="tables made at once over REST")
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON")
    parser.add_argument("--plot", type=Path, default=None, help="write the latency curve as PNG")
    parser.add_argument(
        "--replot", type=Path, default=None, help="only draw --plot from this JSON of results"
    )
    args = parser.parse_args()
    if args.replot is not None:
        plot(json.loads(args.replot.read_text()), args.plot)
        return
    from tests.server.games import two_player

    game = two_player()
    pgs: list[Any] = []  # the PostgreSQL server, once started
    results: list[dict[str, Any]] = []
    sizes = [int(x) for x in args.tables.split(",")]
    peers: dict[int, dict[str, Any]] = {}
    try:
        for n in sizes if not args.no_peer else []:
            peers[n] = measure("peer", None, [n], args.seconds, game, args.clients, [])[0]
            results.append(peers[n])
            print(f"N={n:4d} {'peer':10s} {line(peers[n])}", flush=True)
        for db in args.db.split(","):
            for idle in [int(x) for x in str(args.idle).split(",")]:
                for group in [sizes] if args.same_server else [[n] for n in sizes]:
                    for got in measure_db(args, db, group, idle, game, pgs):
                        n = got["tables"]
                        peer_p99 = peers.get(n, {}).get("p99_ms")
                        got["p99_vs_peer"] = (got["p99_ms"] or 0) / peer_p99 if peer_p99 else None
                        results.append(got)
                        if idle and got["live_before"] == 0:
                            print(f"       {idle_line(got)}", flush=True)
                        print(
                            f"N={n:4d} {got['server']:10s} {line(got)}"
                            + (
                                f"  (p99 ×{got['p99_vs_peer']:.1f} the peer's)"
                                if got["p99_vs_peer"]
                                else ""
                            ),
                            flush=True,
                        )
                        if "phases_ms" in got:
                            print(f"       {phases_line(got)}", flush=True)
    finally:
        for pg in pgs:
            pg.stop()
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))
    if args.plot:
        plot(results, args.plot)


def measure_db(
    args: argparse.Namespace, db: str, sizes: list[int], idle: int, game: str, pgs: list[Any]
) -> list[dict[str, Any]]:
    """Runs of decklab on ``db`` (``postgresql:N``: N processes), one fresh server and
    database for the ``sizes`` in turn."""
    from tests.server import pgserver

    kind, _, processes = db.partition(":")
    extra = list(args.serve_arg)
    if processes:
        extra += ["--processes", processes]
    if kind == "postgresql":
        if not pgs:
            pgs.append(pgserver.start())
        url = pgs[0].create_database(f"load_{sizes[0]}_{random.randrange(10**6)}")
    else:
        url = f"sqlite:///{tempfile.mkdtemp(prefix='decklab-load-db-')}/server.sqlite3"
    label = db
    if idle:
        label = f"{db} +{idle // 1000}k idle" if idle >= 1000 else f"{db} +{idle} idle"
    runs = measure(
        db,
        url,
        sizes,
        args.seconds,
        game,
        args.clients,
        extra,
        None if args.py_spy is None else args.py_spy / f"{db}-{sizes[0]}-{idle}.txt",
        accounts=0 if args.guests else max(2, args.accounts),
        idle=idle,
        idle_seconds=args.idle_seconds,
        parallel=args.parallel,
    )
    for got in runs:
        got["database"] = kind
        got["seats"] = "guests" if args.guests else "accounts"
        got["server"] = label
    return runs


def line(got: dict[str, Any]) -> str:
    return (
        f"{got['moves_per_s']:7.1f} moves/s  p50 {got['p50_ms'] or 0:7.1f} ms  "
        f"p99 {got['p99_ms'] or 0:7.1f} ms  max {got['max_ms'] or 0:7.1f} ms  CPU: server {got['server_cpu']:.2f} "
        f"({got['server_cpu_ms_per_move']:.2f} ms/move, waited {got['server_run_queue_wait']:.2f}) "
        f"clients {got['client_cpu']:.2f} ({got['clients']} procs) "
        f"machine {got['machine_busy_cores']:.2f}  "
        f"client lag p99 {got['client_lag_p99_ms'] or 0:.1f} ms  "
        f"frame {got['event_frame_bytes'] or 0:.0f} B  "
        f"errors {got['errors']} {got['error_codes']}"
    )


def idle_line(got: dict[str, Any]) -> str:
    return (
        f"{got['idle_tables']} idle turn-based tables (made at {got['idle_tables_per_s']:.0f}/s): "
        f"server CPU at rest {got['idle_server_cpu']:.4f} cores over {got['idle_window_s']:.0f} s "
        f"({got['idle_server_cpu_without_tables']:.4f} before them; "
        f"{got.get('idle_full_collections', 0)} full collections in the window, "
        f"{got.get('idle_full_collection_ms', [])} ms) "
        f"(machine {got['idle_machine_busy_cores']:.2f}); RSS {got['idle_rss_before_mb']:.0f} → "
        f"{got['idle_rss_after_mb']:.0f} MB = {got['idle_kb_per_table']:.1f} kB a table "
        f"({got['idle_kb_per_table_second_half']:.1f} kB in the second half)"
    )


def phases_line(got: dict[str, Any]) -> str:
    parts = [
        f"{name} {v['p50'] or 0:.1f}/{v['p99'] or 0:.1f}" for name, v in got["phases_ms"].items()
    ]
    return (
        "p50/p99 ms: "
        + "  ".join(parts)
        + f"  | server loop lag p99 {got['server_lag_p99_ms'] or 0:.1f} ms, "
        f"commits {got['batches_per_s']:.0f}/s of {got['batch_mean'] or 0:.1f} writes, "
        f"p99 {got['batch_p99_ms'] or 0:.1f} ms, "
        f"full collections {got['full_collections']}"
    )


def plot(results: list[dict[str, Any]], path: Path) -> None:
    try:
        import matplotlib
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)")
        return

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for index, kind in enumerate(sorted({r["server"] for r in results})):
        rows = [r for r in results if r["server"] == kind]
        color = f"C{index}"
        ax.plot(
            [r["tables"] for r in rows],
            [r["p99_ms"] for r in rows],
            marker="o",
            color=color,
            label=f"{kind} p99",
        )
        ax.plot(
            [r["tables"] for r in rows],
            [r["p50_ms"] for r in rows],
            marker=".",
            linestyle="--",
            color=color,
            label=f"{kind} p50",
        )
    ax.axhline(50, color="grey", linewidth=0.8, linestyle=":", label="target p99 (50 ms)")
    ax.set_xlabel("concurrent tables (one move per table per second)")
    ax.set_ylabel("intent → broadcast to every seat (ms)")
    ax.set_yscale("log")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
