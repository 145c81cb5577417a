"""``decklab db backup`` and ``decklab db restore``: a database copied to a file and back.

SQLite is copied with its online backup API (:meth:`sqlite3.Connection.backup`): a
consistent snapshot while the server keeps writing, WAL included, where copying the
file could catch it midway. PostgreSQL is dumped with ``pg_dump -Fc`` and restored
with ``pg_restore --clean --if-exists``, the machine's own tools (Debian:
``postgresql-client``). A restore never writes to the backup file and refuses to
replace a database that holds tables unless told to (``force``): a restore pointed at
the wrong database should cost nothing.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy import inspect, select
from sqlalchemy.engine import URL, make_url

from decklab.server.store.db import is_postgres, make_engine
from decklab.server.store.models import Base


class BackupError(Exception):
    """A backup or restore that cannot be done, with the reason in words."""


def _sqlite_path(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(database)


def pg_tool(name: str) -> str:
    """The path of ``pg_dump`` or ``pg_restore``: on PATH, else Debian's newest."""
    found = shutil.which(name)
    if found:
        return found
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        candidate = os.path.join(folder, name)
        if os.access(candidate, os.X_OK):
            return candidate
    raise BackupError(f"{name} not found: install PostgreSQL's client tools (postgresql-client)")


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """A libpq connection string without the password, and the environment carrying it
    (a password on a command line is visible to every user of the machine)."""
    parsed: URL = make_url(url)
    env = dict(os.environ)
    if parsed.password is not None:
        env["PGPASSWORD"] = str(parsed.password)
    plain = parsed.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def has_tables(url: str) -> bool:
    """Whether the database holds any row of decklab's (an upgraded empty one does not)."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            present = set(inspect(conn).get_table_names())
            for table in Base.metadata.sorted_tables:
                if (
                    table.name in present
                    and conn.execute(select(1).select_from(table).limit(1)).first()
                ):
                    return True
        return False
    finally:
        engine.dispose()


def backup(url: str, file: Path) -> None:
    """Copy the database at ``url`` into ``file``, which must not exist yet."""
    if file.exists():
        raise BackupError(f"{file} exists: a backup never replaces a file")
    partial = file.with_name(file.name + ".partial")
    try:
        if is_postgres(url):
            target, env = _libpq(url)
            _run([pg_tool("pg_dump"), "-Fc", "--no-owner", "-f", str(partial), target], env)
        else:
            source_path = _sqlite_path(url)
            if not source_path.exists():
                raise BackupError(f"no database at {source_path}")
            source, copy = sqlite3.connect(source_path), sqlite3.connect(partial)
            try:
                source.backup(copy)
                # A file complete in itself (no WAL beside it), which a restore can
                # then read without writing anything next to it.
                copy.execute("PRAGMA journal_mode=DELETE")
            finally:
                copy.close()
                source.close()
        partial.replace(file)
    finally:
        partial.unlink(missing_ok=True)


def restore(url: str, file: Path, force: bool = False) -> None:
    """Replace the database at ``url`` by the backup in ``file`` (read only).

    Stop the servers first: a running server holds tables in memory that the restore
    would pull out from under it."""
    if not file.is_file():
        raise BackupError(f"no backup file at {file}")
    if not force and _exists(url) and has_tables(url):
        raise BackupError("the database holds tables: restore over it with --force")
    if is_postgres(url):
        target, env = _libpq(url)
        _run(
            [
                pg_tool("pg_restore"),
                "--clean",
                "--if-exists",
                "--no-owner",
                "-d",
                target,
                str(file),
            ],
            env,
        )
        return
    source = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    target_db = sqlite3.connect(_sqlite_path(url))
    try:
        source.backup(target_db)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{file} is not a SQLite backup: {exc}") from None
    finally:
        target_db.close()
        source.close()


def _exists(url: str) -> bool:
    return is_postgres(url) or _sqlite_path(url).exists()


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()[-2000:]}")
