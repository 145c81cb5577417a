"""Move latency at a guest's solo table while other clients flood the password routes.

A real ``decklab serve`` on loopback (embedded SQLite unless ``--database``). First the
moves are timed with nothing else going on (the baseline), then during each flood:
wrong-password ``POST /api/account/password`` requests from one account, and logins of
unknown names from one loopback address per worker (127.0.0.10, .11, ...), at 1, 8 and 32
concurrent requests. Each flood runs in a process of its own, so the probe's own event
loop is not what is measured. A flood's worker sends its next request as soon as it has
an answer; after a refusal (429 or 503, answered at once) it pauses ``--pause-ms`` (20)
first, so that the flood is of password checks, not of refusals in a tight loop (that is
a plain request flood, which a proxy's limits are for).

Prints a table (p50 and p99 of a move, and p99 over the baseline's p99; the target is
1.5 or less) and writes it as JSON (``--out``). Bounded: every flood stops after its moves.

    .venv/bin/python bench/auth_flood.py --moves 200 --out docs/auth_flood.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

PASSWORD = "correct horse battery staple"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(database: str, home: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "DECKLAB_HOME": str(home)}
    command = [sys.executable, "-m", "decklab.cli", "serve", "--port", str(port)]
    command += ["--database", database, "--log-level", "warning"]
    log = open(home / "server.log", "ab")  # noqa: SIM115 - the server's for its life
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: see {home / 'server.log'}")
        try:
            if httpx.get(f"{base}/api/health", timeout=0.5).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise SystemExit("the server did not start in 30 s")


async def _solo(http: httpx.AsyncClient) -> tuple[str, dict[str, str]]:
    table = (await http.post("/api/tables", json={"game": "cabin", "players": 1})).json()["id"]
    joined = await http.post(f"/api/tables/{table}/join", json={"seat": "p1", "nickname": "g"})
    return table, {"authorization": f"Bearer {joined.json()['token']}"}


async def move_times(base: str, count: int) -> list[float]:
    """Seconds each of ``count`` moves took (a new solo table when one ends)."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        table, auth = await _solo(http)
        times: list[float] = []
        while len(times) < count:
            got = (await http.get(f"/api/tables/{table}/state", headers=auth)).json()["state"]
            if got["terminal"] or not got["legal"]:
                table, auth = await _solo(http)
                continue
            intent = {"action": got["legal"][0], "version": got["version"]}
            intent["client_id"] = uuid.uuid4().hex
            started = time.perf_counter()
            answer = await http.post(f"/api/tables/{table}/actions", json=intent, headers=auth)
            times.append(time.perf_counter() - started)
            answer.raise_for_status()
        return times


async def _flood(
    kind: str,
    base: str,
    workers: int,
    session: dict[str, str],
    pause: float,
    stop: Any,
    counts: Any,
) -> None:
    async def one(i: int) -> None:
        if kind == "login":
            transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{10 + i}")
            http = httpx.AsyncClient(base_url=base, transport=transport, timeout=60)
        else:
            http = httpx.AsyncClient(base_url=base, cookies=session, timeout=60)
        sent = 0
        async with http:
            while not stop.is_set():
                if kind == "login":
                    body = {"username": f"nobody{i}x{sent}", "password": "a wrong guess"}
                    answer = await http.post("/api/account/login", json=body)
                else:
                    body = {"current": f"guess {sent}", "new": "a whole new passphrase"}
                    headers = {"x-csrf-token": session["csrf"]}
                    answer = await http.post("/api/account/password", json=body, headers=headers)
                sent += 1
                with counts.get_lock():
                    counts[answer.status_code // 100] += 1
                if answer.status_code in (429, 503):
                    await asyncio.sleep(pause)

    await asyncio.gather(*(one(i) for i in range(workers)))


def flood_process(
    kind: str,
    base: str,
    workers: int,
    session: dict[str, str],
    pause: float,
    stop: Any,
    counts: Any,
) -> None:
    asyncio.run(_flood(kind, base, workers, session, pause, stop, counts))


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {"p50_ms": statistics.median(ordered) * 1000, "p99_ms": p99 * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="moves timed per condition")
    parser.add_argument("--database", default="", help="a database URL (default: SQLite)")
    parser.add_argument("--pause-ms", type=float, default=20.0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="auth-flood-"))
    database = args.database or f"sqlite:///{home / 'server.sqlite3'}"
    proc, base = start_server(database, home)
    rows: list[dict[str, Any]] = []
    try:
        with httpx.Client(base_url=base, timeout=60) as setup:
            me = setup.post("/api/account/signup", json={"username": "flood", "password": PASSWORD})
            me.raise_for_status()
            session = {
                "decklab_session": setup.cookies["decklab_session"],
                "csrf": me.json()["csrf"],
            }
        asyncio.run(move_times(base, 20))  # warm up
        baseline = summary(asyncio.run(move_times(base, args.moves)))
        rows.append({"flood": "none", "concurrent": 0, **baseline, "ratio_p99": 1.0})
        print(
            f"{'flood':<18}{'concurrent':>11}{'p50 ms':>9}{'p99 ms':>9}{'p99/base':>10}{'answers':>22}"
        )
        print(
            f"{'none':<18}{0:>11}{baseline['p50_ms']:>9.1f}{baseline['p99_ms']:>9.1f}{1.0:>10.2f}"
        )
        for kind in ("password-change", "login"):
            for workers in (1, 8, 32):
                stop = multiprocessing.Event()
                counts = multiprocessing.Array("i", 6)
                flood = multiprocessing.Process(
                    target=flood_process,
                    args=(
                        "login" if kind == "login" else "change",
                        base,
                        workers,
                        session,
                        args.pause_ms / 1000,
                        stop,
                        counts,
                    ),
                )
                flood.start()
                while sum(counts[:]) < workers:  # the flood under way before timing
                    time.sleep(0.01)
                got = summary(asyncio.run(move_times(base, args.moves)))
                stop.set()
                flood.join(60)
                ratio = got["p99_ms"] / baseline["p99_ms"]
                answered = {f"{k}xx": counts[k] for k in range(2, 6) if counts[k]}
                rows.append(
                    {
                        "flood": kind,
                        "concurrent": workers,
                        **got,
                        "ratio_p99": ratio,
                        "answers": answered,
                    }
                )
                shown = " ".join(f"{k}:{v}" for k, v in answered.items())
                print(
                    f"{kind:<18}{workers:>11}{got['p50_ms']:>9.1f}{got['p99_ms']:>9.1f}"
                    f"{ratio:>10.2f}{shown:>22}"
                )
    finally:
        proc.terminate()
        proc.wait(10)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    result = {
        "moves": args.moves,
        "database": "postgresql" if args.database else "sqlite",
        "pause_ms": args.pause_ms,
        "commit": commit,
        "cores": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d"),
        "rows": rows,
    }
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
        print(f"written: {args.out}")


if __name__ == "__main__":
    main()
