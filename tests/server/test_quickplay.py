"""Quick play (issue 21, item 5), on SQLite and PostgreSQL: people asking for the same
terms meet at one table; at the deadline bots of the chosen level take the empty seats
and the game starts with ``max_players`` seats; a deadline survives a restart; leaving
before the start frees the seat and an empty table is discarded; bad input is a clear
400 that creates nothing. The wall clock is injected (``service.wall``)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select
from starlette.testclient import TestClient

from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.errors import ServiceError
from decklab.server.quickplay import QuickPlay, Seated, Terms
from decklab.server.service import TableService
from decklab.server.store.db import make_engine, upgrade
from decklab.server.store.models import QuickPlayRow, TableRow
from decklab.server.store.queries import Store
from decklab.server.store.quickplay import QuickPlayStore

from .conftest import fast_settings
from .games import pick

GAME = pick(lambda i: i.max_players >= 5 and i.min_players <= 4)
"""A game for a crowd (four or five seats)."""


class Wall:
    """A wall clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def _quickplay(database_url: str, pool: BotPool, wall: Wall) -> AsyncIterator[QuickPlay]:
    upgrade(database_url)
    store = Store(make_engine(database_url))
    service = TableService(store, fast_settings(database_url=database_url), pool)
    service.wall = wall
    await service.start()
    quickplay = QuickPlay(QuickPlayStore(store.engine), service)
    await quickplay.start()
    try:
        yield quickplay
    finally:
        await quickplay.close()
        await service.close()
        store.close()


def _terms(**changes: Any) -> Terms:
    values: dict[str, Any] = {
        "game": GAME,
        "min_players": 4,
        "max_players": 5,
        "wait_s": 60,
        "level": "beginner",
    }
    return Terms(**(values | changes))


async def _play(quickplay: QuickPlay, nickname: str, **changes: Any) -> Seated:
    async def seat(table_id: str, seat_text: str) -> tuple[int, str]:
        return await quickplay.service.join(table_id, seat_text, nickname)

    return await quickplay.play(_terms(**changes), seat)


@pytest.mark.anyio
async def test_people_meet_then_bots_fill_at_the_deadline(
    database_url: str, bot_pool: BotPool
) -> None:
    wall = Wall()
    async with _quickplay(database_url, bot_pool, wall) as quickplay:
        ann = await _play(quickplay, "ann")
        wall.now += 20
        bob = await _play(quickplay, "bob")
        assert ann.created and not bob.created
        assert bob.table_id == ann.table_id and bob.seat != ann.seat
        # other terms (level, range) are another table
        other = await _play(quickplay, "cy", level="expert")
        assert other.table_id != ann.table_id
        table = await quickplay.service.table(ann.table_id)
        assert table.status == "waiting"
        view = await quickplay.waiting_view(ann.table_id)
        assert view["seconds_left"] == 40 and view["max_players"] == 5
        assert [s["nickname"] for s in view["seats"] if s["kind"] == "human"] == ["ann", "bob"]
        # not yet due
        wall.now += 39
        assert await quickplay.run_due() == {}
        assert table.status == "waiting"
        wall.now += 1
        done = await quickplay.run_due()
        assert done[ann.table_id] == "playing"
        assert table.status == "playing" and table.state.num_players == 5
        kinds = [(s.kind, s.bot_spec) for s in table.seats]
        assert kinds.count(("bot", "beginner")) == 3
        assert [s.nickname for s in table.seats if s.kind == "human"] == ["ann", "bob"]
        # a third person after the start gets a new table
        dan = await _play(quickplay, "dan")
        assert dan.created and dan.table_id not in (ann.table_id, other.table_id)


@pytest.mark.anyio
async def test_a_full_table_starts_at_once(database_url: str, bot_pool: BotPool) -> None:
    wall = Wall()
    async with _quickplay(database_url, bot_pool, wall) as quickplay:
        seated = [await _play(quickplay, f"n{i}", min_players=4, max_players=4) for i in range(4)]
        assert len({s.table_id for s in seated}) == 1
        table = await quickplay.service.table(seated[0].table_id)
        assert table.status == "playing" and all(s.kind == "human" for s in table.seats)
        wall.now += 3600
        assert await quickplay.run_due() == {seated[0].table_id: "playing"}
        assert all(s.kind == "human" for s in table.seats)  # nobody replaced by a bot


@pytest.mark.anyio
async def test_a_deadline_survives_a_restart(database_url: str, bot_pool: BotPool) -> None:
    wall = Wall()
    async with _quickplay(database_url, bot_pool, wall) as quickplay:
        ann = await _play(quickplay, "ann", level="casual")
    wall.now += 61
    async with _quickplay(database_url, bot_pool, wall) as quickplay:
        assert await quickplay.run_due() == {ann.table_id: "playing"}
        table = await quickplay.service.table(ann.table_id)
        assert [s.bot_spec for s in table.seats if s.kind == "bot"] == ["casual"] * 4


@pytest.mark.anyio
async def test_leaving_before_the_start_frees_the_seat(
    database_url: str, bot_pool: BotPool
) -> None:
    wall = Wall()
    async with _quickplay(database_url, bot_pool, wall) as quickplay:
        ann = await _play(quickplay, "ann")
        bob = await _play(quickplay, "bob")
        assert await quickplay.leave(ann.table_id, ann.token) == "waiting"
        table = await quickplay.service.table(ann.table_id)
        assert table.seats[ann.seat].kind == "open"
        with pytest.raises(ServiceError):  # that token holds nothing any more
            await quickplay.leave(ann.table_id, ann.token)
        cy = await _play(quickplay, "cy")  # the freed seat is taken again
        assert cy.table_id == ann.table_id
        assert await quickplay.leave(bob.table_id, bob.token) == "waiting"
        assert await quickplay.leave(cy.table_id, cy.token) == "expired"
        assert table.status == "expired"
        dan = await _play(quickplay, "dan")
        assert dan.created and dan.table_id != ann.table_id
        wall.now += 3600
        done = await quickplay.run_due()
        assert done == {ann.table_id: "expired", dan.table_id: "playing"}
        assert all(s.kind == "open" for s in table.seats)  # no bots at a discarded table


@pytest.fixture
def client(database_url: str, bot_pool: BotPool) -> Iterator[TestClient]:
    app = create_app(fast_settings(database_url=database_url), pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="http://testserver") as test_client:
        yield test_client


def _counts(database_url: str) -> tuple[int, int]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as db:
            tables = db.scalar(select(func.count()).select_from(TableRow))
            rows = db.scalar(select(func.count()).select_from(QuickPlayRow))
            return int(tables or 0), int(rows or 0)
    finally:
        engine.dispose()


def test_quick_play_over_http(client: TestClient, database_url: str) -> None:
    body = {"game": GAME, "min_players": 4, "max_players": 5, "wait_s": 30, "level": "casual"}
    ann = client.post("/api/quickplay", json=body | {"nickname": "ann"})
    assert ann.status_code == 200, ann.text
    bob = client.post("/api/quickplay", json=body | {"nickname": "bob"}).json()
    assert bob["table"] == ann.json()["table"] and bob["seat"] == "p2" and not bob["created"]
    view = client.get(f"/api/quickplay/{bob['table']}").json()
    assert view["status"] == "waiting" and 0 < view["seconds_left"] <= 30
    assert [s["nickname"] for s in view["seats"]][:2] == ["ann", "bob"]
    state = client.get(
        f"/api/tables/{bob['table']}/state", headers={"Authorization": f"Bearer {bob['token']}"}
    )
    assert state.status_code == 200
    left = client.post(
        f"/api/quickplay/{bob['table']}/leave", headers={"Authorization": f"Bearer {bob['token']}"}
    )
    assert left.status_code == 204
    view = client.get(f"/api/quickplay/{bob['table']}").json()
    assert [s["kind"] for s in view["seats"]][:2] == ["human", "open"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"game": "no-such-game"}, "no-such-game"),
        ({"min_players": 1}, "within"),
        ({"max_players": 99}, "within"),
        ({"min_players": 5, "max_players": 4}, "smallest first"),
        ({"wait_s": 1}, "wait"),
        ({"wait_s": 100_000}, "wait"),
        ({"level": "grandmaster"}, "unknown bot level"),
        ({"level": "python:os:system"}, "Python code"),
        ({"rated": True}, "log in"),
    ],
)
def test_bad_input_is_refused_and_creates_nothing(
    client: TestClient, database_url: str, change: dict[str, Any], words: str
) -> None:
    body = {"game": GAME, "min_players": 4, "max_players": 5, "wait_s": 30, "level": "casual"}
    before = _counts(database_url)
    answer = client.post("/api/quickplay", json=body | {"nickname": "ann"} | change)
    assert answer.status_code in (400, 403), answer.text
    error = answer.json()["error"]
    assert words in error["message"] and error["code"] in ("bad_request", "account_needed")
    assert _counts(database_url) == before
