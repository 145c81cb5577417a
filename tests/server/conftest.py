"""Fixtures for the server tests: every database test runs on SQLite and on PostgreSQL.

The PostgreSQL server is started once per session from the machine's binaries
(:mod:`pgserver`); each test gets its own fresh database on it, as it gets its
own SQLite file.
"""

from __future__ import annotations

import uuid
import warnings
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.config import Settings
from decklab.server.service import TableService
from decklab.server.store.db import make_engine, upgrade
from decklab.server.store.queries import Store

from . import pgserver

with warnings.catch_warnings():
    # Starlette asks for httpx2 instead of httpx; httpx is what schemathesis uses too.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    server: pgserver.PgServer = request.getfixturevalue("pg_server")
    return server.create_database(f"t_{uuid.uuid4().hex[:12]}")


@pytest.fixture(scope="session")
def bot_pool() -> Iterator[BotPool]:
    pool = BotPool(workers=2)
    try:
        yield pool
    finally:
        pool.close()


def fast_settings(**changes: object) -> Settings:
    """Quick heartbeats; a long grace, so a seat whose connection a test closes is never
    taken over by a bot while the test plays it on (the leaver test asks for a short one);
    TestClient's ``http://testserver`` as the public URL (its Host is no loopback name)."""
    settings = Settings(grace_s=600.0, heartbeat_s=1.0, public_urls=("http://testserver",))
    for key, value in changes.items():
        setattr(settings, key, value)
    return settings


@asynccontextmanager
async def started_service(
    database_url: str,
    pool: BotPool | None,
    wall: Callable[[], float] | None = None,
    heavy_pool: BotPool | None = None,
    **settings: object,
) -> AsyncIterator[TableService]:
    """A started service on a fresh database, with ``settings`` over the tests' fast ones;
    ``wall``: the deadlines' clock (a test's own, moved by hand or counting its reads);
    ``pool=None``: no bot can think (a seat handed to a bot then waits). Every server test
    that needs a service of its own sets it up here, so all set it up alike."""
    upgrade(database_url)
    store = Store(make_engine(database_url))
    config = fast_settings(database_url=database_url, **settings)
    svc = TableService(store, config, pool, heavy_pool=heavy_pool)
    if wall is not None:
        svc.wall = wall
    await svc.start()
    try:
        yield svc
    finally:
        await svc.close()
        store.close()


@pytest.fixture
async def service(database_url: str, bot_pool: BotPool) -> AsyncIterator[TableService]:
    async with started_service(database_url, bot_pool, heavy_pool=bot_pool) as svc:
        yield svc


def app_client(database_url: str, bot_pool: BotPool, **changes: object) -> Iterator[TestClient]:
    """The real application on a fresh database, in-process, with ``changes`` over the
    tests' fast settings: every client fixture below is this with its own changes."""
    settings = fast_settings(database_url=database_url, **changes)
    app = create_app(settings, pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="http://testserver") as test_client:
        yield test_client


@pytest.fixture
def client(database_url: str, bot_pool: BotPool) -> Iterator[TestClient]:
    """The real application (REST and WebSocket) on a fresh database, in-process."""
    yield from app_client(database_url, bot_pool)


@pytest.fixture
def roomy_client(database_url: str, bot_pool: BotPool) -> Iterator[TestClient]:
    """As ``client``, with room for many tables and joins from one address (1,000 a
    window, not 30 and 20): for a test that makes tables until the dealt first mover
    suits it, which is no test of the limits. With 20 joins, two tables each found after
    a run of unlucky deals went over the limit (about one run in a hundred; CI saw it)."""
    yield from app_client(database_url, bot_pool, joins_per_window=1000, tables_per_window=1000)


@pytest.fixture
def hasty_client(database_url: str, bot_pool: BotPool) -> Iterator[TestClient]:
    """As ``client``, with a grace of 0.3 s: a seat left empty goes to a bot at once.
    Heartbeats are an hour apart: the leaver test's connections never answer pings, and
    with quick ones a slow machine closed the seated page as silent (two beats, 2 s),
    so a bot took p1 too and the test's count of versions failed in CI."""
    yield from app_client(database_url, bot_pool, grace_s=0.3, heartbeat_s=3600.0)
