"""A real ``decklab serve`` in a subprocess on a random loopback port, for the crash and
multi-process tests."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    """A free port below Linux's ephemeral range (32768-60999): a server restarted on it
    (the crash test) never finds it held by some test's outgoing connection."""
    for _ in range(100):
        port = random.randint(20000, 32000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port")


class ServerProcess:
    def __init__(self, database: str, home: Path, port: int | None = None, *extra: str) -> None:
        self.database = database
        self.home = home
        home.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.extra = list(extra)
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = home / f"server-{self.port}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait: float = 30.0) -> None:
        env = {**os.environ, "DECKLAB_HOME": str(self.home)}
        command = [
            sys.executable,
            "-m",
            "decklab.cli",
            "serve",
            "--port",
            str(self.port),
            "--database",
            self.database,
            "--log-level",
            "warning",
            *self.extra,
        ]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(command, env=env, stdout=out, stderr=out)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base}/api/health", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("the server did not start in time")

    def wait_for_processes(self, count: int, wait: float = 120.0) -> set[str]:
        """Until ``count`` server processes answer behind the port. The first answers
        the health check while the others may still be importing (a slow machine takes
        seconds): every probe is a fresh connection, so the kernel may hand it to any
        process that accepts."""
        seen: set[str] = set()
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                with httpx.Client(timeout=2) as fresh:
                    seen.add(fresh.get(f"{self.base}/api/health").json()["process"])
            except httpx.HTTPError:
                pass
            if len(seen) >= count:
                return seen
            time.sleep(0.05)
        raise RuntimeError(
            f"{len(seen)} of {count} server processes answered in {wait:.0f} s: "
            f"{self.log.read_text()[-2000:]}"
        )

    def kill(self) -> None:
        """SIGKILL: no chance to flush or say goodbye."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class ForkedServer(ServerProcess):
    """The same server, forked from a warmed-up parent (:mod:`zygote`) to restart fast."""

    def __init__(self, database: str, home: Path) -> None:
        super().__init__(database, home)
        env = {**os.environ, "DECKLAB_HOME": str(home)}
        self.log_file = open(self.log, "ab")  # noqa: SIM115 - kept open for the parent's life
        self.parent = subprocess.Popen(
            [sys.executable, "-m", "tests.server.zygote", database, str(self.port), str(home)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log_file,
            env=env,
            cwd=str(Path(__file__).resolve().parents[2]),
            text=True,
        )
        self.pid: int | None = None

    def start(self, wait: float = 30.0) -> None:
        assert self.parent.stdin is not None and self.parent.stdout is not None
        self.parent.stdin.write("start\n")
        self.parent.stdin.flush()
        self.pid = int(self.parent.stdout.readline())
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            # uvicorn listens only once the application has started: knock cheaply (a
            # bare connect) until it does, then ask for the health once.
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
            except OSError:
                time.sleep(0.01)
                continue
            try:
                if httpx.get(f"{self.base}/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.01)
        raise RuntimeError(f"the server did not start in time: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.pid is None:
            return
        assert self.parent.stdin is not None and self.parent.stdout is not None
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        self.parent.stdin.write(f"reap {self.pid}\n")
        self.parent.stdin.flush()
        self.parent.stdout.readline()
        self.pid = None

    def stop(self) -> None:
        self.kill()
        self.parent.terminate()
        self.parent.wait(10)
        self.log_file.close()
