"""A throwaway PostgreSQL server for the tests, started from the machine's own binaries.

``initdb`` and ``postgres`` refuse to run as root, so as root they run as an
unprivileged user (``postgres`` if the system has one, else ``nobody``) that owns
the temporary data folder. The server listens on a random loopback port and on
a Unix socket in that folder, with fsync off (the tests kill *our* server, not
PostgreSQL, so PostgreSQL's own durability is not what they test).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

INSTALL_HINT = (
    "PostgreSQL binaries (initdb, pg_ctl) not found on PATH or under /usr/lib/postgresql/*/bin: "
    "install them (Debian: apt-get install postgresql) to run the PostgreSQL half of the server tests"
)


def find_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(folder, "initdb")):
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    bin_dir: Path
    root: Path
    port: int
    user_prefix: list[str]

    @property
    def admin_url(self) -> str:
        return f"postgresql+psycopg://decklab@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://decklab@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(
            f"postgresql://decklab@127.0.0.1:{self.port}/postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        subprocess.run(
            [
                *self.user_prefix,
                str(self.bin_dir / "pg_ctl"),
                "stop",
                "-D",
                str(self.root / "data"),
                "-m",
                "immediate",
            ],
            capture_output=True,
            timeout=60,
            check=False,
        )
        shutil.rmtree(self.root, ignore_errors=True)


def start() -> PgServer:
    """Start a fresh server (raises RuntimeError with PostgreSQL's own words if it fails)."""
    bin_dir = find_binaries()
    if bin_dir is None:
        raise FileNotFoundError(INSTALL_HINT)
    root = Path(tempfile.mkdtemp(prefix="decklab-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            user = pwd.getpwnam("nobody")
        os.chown(root, user.pw_uid, user.pw_gid)
        prefix = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"]
    data = root / "data"
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
    run = subprocess.run(
        [
            *prefix,
            str(bin_dir / "initdb"),
            "-D",
            str(data),
            "-U",
            "decklab",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    if run.returncode != 0:
        raise RuntimeError(f"initdb failed: {run.stderr.strip() or run.stdout.strip()}")
    port = _free_port()
    options = (
        f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    run = subprocess.run(
        [
            *prefix,
            str(bin_dir / "pg_ctl"),
            "start",
            "-w",
            "-D",
            str(data),
            "-l",
            str(root / "log"),
            "-o",
            options,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    if run.returncode != 0:
        log = (root / "log").read_text(errors="replace") if (root / "log").exists() else ""
        raise RuntimeError(f"pg_ctl start failed: {run.stderr.strip()} {log[-2000:]}")
    return PgServer(bin_dir, root, port, prefix)
