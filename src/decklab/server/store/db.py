"""Connecting to the database and bringing its schema up to date.

One code path for both databases: an embedded SQLite file in the data folder
(WAL mode, so readers never wait for the writer; ``synchronous=NORMAL`` by
default, so that a committed action survives the server being killed — see
:data:`SQLITE_SYNC` — or ``FULL`` to survive a power cut too), or PostgreSQL by URL
(``postgresql+psycopg://…``). The schema is made by Alembic migrations, applied
on start and by ``decklab db upgrade``.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import QueuePool

from decklab.play.storage import data_dir

if TYPE_CHECKING:
    from alembic.config import Config

FILE_NAME = "server.sqlite3"
HEAD = "0011"
"""The newest migration (a test checks it against Alembic's own view): a database already
there starts without loading Alembic at all, which keeps restarts quick."""


SQLITE_SYNC = ("normal", "full")
"""SQLite's ``synchronous`` levels the server offers (``--sqlite-sync``).

In WAL mode a commit appends to the WAL file with ``write()`` before the call
returns, under both levels; they differ only in when the WAL is fsynced. With
``normal`` it is fsynced at checkpoints, not at each commit: a committed action is
in the operating system's page cache at once, where a killed process (SIGKILL, a
crash of the server) cannot take it back — only losing the whole machine (power,
kernel) can drop the last commits. With ``full`` each commit also waits for the
disk (several milliseconds each, and far more on a busy disk)."""


def default_url() -> str:
    """The embedded database: a SQLite file in the data folder (``DECKLAB_HOME``)."""
    return f"sqlite:///{data_dir() / FILE_NAME}"


def is_postgres(url: str) -> bool:
    return make_url(url).get_backend_name() == "postgresql"


def check_url(url: str) -> str:
    """The URL, or a clear error for one this server cannot use."""
    try:
        parsed = make_url(url)
    except Exception:
        raise ValueError(f"not a database URL: {url!r}") from None
    backend = parsed.get_backend_name()
    if backend not in {"sqlite", "postgresql"}:
        raise ValueError(
            f"unsupported database {backend!r}: use sqlite:///PATH or postgresql+psycopg://…"
        )
    if backend == "postgresql" and parsed.get_driver_name() != "psycopg":
        raise ValueError("PostgreSQL is reached with psycopg 3: write postgresql+psycopg://…")
    return url


def _sqlite_pragmas(dbapi_connection: Any, synchronous: str, busy_ms: int = 5000) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={synchronous.upper()}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
    # The WAL is copied back into the database file by the server's own checkpoints
    # (Store.checkpoint, off the commit path): left to SQLite, the commit that crosses
    # 1000 pages does it itself, with its fsyncs, and every move queued behind it waits.
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


def make_engine(url: str, sqlite_sync: str = "normal", busy_timeout_s: float = 5.0) -> Engine:
    """An engine for ``url``, with SQLite set up for durability and concurrency.

    ``busy_timeout_s``: how long a statement waits for a lock another connection holds
    before it fails (and the request is answered 503): SQLite's ``busy_timeout``,
    PostgreSQL's ``lock_timeout`` (carried in the URL, so the commit engine has it too)."""
    check_url(url)
    if sqlite_sync not in SQLITE_SYNC:
        raise ValueError(f"sqlite_sync is one of {', '.join(SQLITE_SYNC)}, not {sqlite_sync!r}")
    busy_ms = max(1, int(busy_timeout_s * 1000))
    if is_postgres(url):
        parsed = make_url(url)
        options = " ".join(
            [str(parsed.query.get("options", "")), f"-c lock_timeout={busy_ms}"]
        ).strip()
        return create_engine(
            parsed.update_query_dict({"options": options}),
            pool_size=10,
            max_overflow=20,
            pool_pre_ping=True,
        )
    engine = create_engine(url, connect_args={"check_same_thread": False})
    event.listen(
        engine, "connect", lambda conn, _record: _sqlite_pragmas(conn, sqlite_sync, busy_ms)
    )
    return engine


def pool_saturated(engine: Engine) -> bool:
    """Whether every connection ``engine``'s pool may open is checked out now: the next
    request would wait for one (readiness reports it, so a proxy sends players elsewhere)."""
    pool = engine.pool
    if not isinstance(pool, QueuePool):
        return False
    most = pool.size() + max(0, pool._max_overflow)  # no public reader of it
    return pool.checkedout() >= most


def commit_engine(engine: Engine) -> Engine:
    """The engine the group commit writes through: ``engine`` itself for SQLite; for
    PostgreSQL a small pool of its own without ``pool_pre_ping``. The ping is a
    ``SELECT 1`` round trip at every checkout — at every commit — and the commit
    does not need it: a batch that fails on a dead connection is written again
    write by write, and SQLAlchemy has dropped the dead connections by then."""
    if engine.dialect.name != "postgresql":
        return engine
    return create_engine(engine.url, pool_size=2, max_overflow=8, pool_pre_ping=False)


def alembic_config(url: str) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(resources.files("decklab.server") / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str) -> None:
    """Apply every migration the database does not have yet (idempotent)."""
    check_url(url)
    if current_revision(url) == HEAD:
        return
    from alembic import command

    command.upgrade(alembic_config(url), "head")


def current_revision(url: str) -> str | None:
    """The migration the database is at (None: a new database)."""
    engine = make_engine(url)  # for SQLite this also turns WAL on, before Alembic connects
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except Exception:
        return None
    finally:
        engine.dispose()
