"""Turn-based tables (issue 21, item 4): a deadline per move of hours or days; the seat
waits (no bot after the grace period); at the deadline the declared policy applies; a
simultaneous round collects choices until all chose or the deadline. The wall clock is
injected (``service.wall``), so a day passes in a line."""

from __future__ import annotations

import asyncio
import time

import pytest
from starlette.testclient import TestClient

from decklab.server.bots import BotPool
from decklab.server.hub import sync_frame
from decklab.server.pace import TurnSpec
from decklab.server.service import TableService
from decklab.server.table import SeatSpec

from .conftest import started_service
from .games import pick, two_player

pytestmark = pytest.mark.anyio

GAME = two_player()
HOUR = 3600.0


class Wall:
    """A wall clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def _turn_table(
    service: TableService, policy: str, game: str = GAME, players: int = 2
) -> tuple[str, list[str]]:
    table = await service.create_table(
        game, players, [SeatSpec() for _ in range(players)], turn=TurnSpec(HOUR, policy)
    )
    tokens = [(await service.join(table.id, f"p{i + 1}", f"n{i + 1}"))[1] for i in range(players)]
    return table.id, tokens


async def test_a_turn_based_seat_waits_past_the_grace_period(
    database_url: str, bot_pool: BotPool
) -> None:
    async with started_service(database_url, bot_pool, Wall(), grace_s=0.2) as service:
        table_id, tokens = await _turn_table(service, "bot")
        table = await service.table(table_id)
        await service.leave(table_id, tokens[table.state.to_act()[0]])
        await asyncio.sleep(1.0)  # five grace periods: a live table would have a bot now
        assert table.actions == 0 and not any(s.zombie for s in table.seats)
        part = sync_frame(table, None)["state"]["turn"]
        assert part["move_ms"] == HOUR * 1000 and part["on_deadline"] == "bot"
        assert list(part["deadlines"]) == [f"p{table.state.to_act()[0] + 1}"]
        assert table.summary()["turn"]["on_deadline"] == "bot"


async def test_at_the_deadline_a_bot_plays_that_one_move(
    database_url: str, bot_pool: BotPool
) -> None:
    wall = Wall()
    async with started_service(database_url, bot_pool, wall) as service:
        table_id, tokens = await _turn_table(service, "bot")
        table = await service.table(table_id)
        late = table.state.to_act()[0]
        wall.now += HOUR - 1
        assert await service.run_deadlines() == []
        assert table.actions == 0
        wall.now += 2
        assert await service.run_deadlines() == [(table_id, f"p{late + 1}")]
        assert table.actions == 1 and table.entries[-1].actor == late
        # that one move only: the seat is still its person's, with a fresh deadline next time
        assert not table.seats[late].zombie
        nxt = table.state.to_act()[0]
        assert table.deadlines is not None and table.deadlines.due[nxt] == wall.now + HOUR
        # the person plays their next turn themselves
        if nxt == late:
            text = table.views().legal(late)[0]
            await service.act(table_id, tokens[late], text, table.version, "mine")
            assert table.actions == 2


async def test_at_the_deadline_the_seat_forfeits(database_url: str, bot_pool: BotPool) -> None:
    wall = Wall()
    async with started_service(database_url, bot_pool, wall) as service:
        table_id, _ = await _turn_table(service, "forfeit")
        table = await service.table(table_id)
        late = table.state.to_act()[0]
        wall.now += 2 * HOUR
        await service.run_deadlines()
        assert table.status == "finished" and table.outcome is not None
        assert table.outcome["forfeit"] == f"p{late + 1}"
        assert table.outcome["winners"] == [f"p{2 - late}"]
        assert "missed the deadline" in table.outcome["reason"]
        assert sync_frame(table, None)["state"]["terminal"] is True


async def test_skip_plays_the_games_skip_where_it_has_one(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = Wall()
    # no bots: only a skip can move
    async with started_service(database_url, None, wall) as service:
        table_id, _ = await _turn_table(service, "skip")
        table = await service.table(table_id)
        cls = type(table.state)
        late = table.state.to_act()[0]
        chosen = table.state.legal_actions(late)[-1]
        wall.now += 2 * HOUR
        assert await service.run_deadlines() == []  # no skip in these rules, no bot: waits
        assert table.actions == 0
        monkeypatch.setattr(cls, "skip_action", lambda self, seat: chosen, raising=True)
        service._due_at(wall.now, table_id)
        assert await service.run_deadlines() == [(table_id, f"p{late + 1}")]
        assert table.actions == 1 and table.entries[-1].actor == late


async def test_a_simultaneous_round_waits_for_all_or_the_deadline(
    database_url: str, bot_pool: BotPool
) -> None:
    game = pick(lambda i: i.simultaneous)
    from decklab.engine.registry import get_game

    players = get_game(game).info.min_players
    wall = Wall()
    async with started_service(database_url, bot_pool, wall) as service:
        table_id, tokens = await _turn_table(service, "bot", game, players)
        table = await service.table(table_id)
        to_act = table.state.to_act()
        assert len(to_act) > 1
        first = to_act[0]
        await service.act(
            table_id, tokens[first], table.views().legal(first)[0], table.version, "a"
        )
        wall.now += HOUR / 2
        assert await service.run_deadlines() == []
        rest = [s for s in to_act if s != first]
        assert set(table.state.to_act()) == set(rest)  # the round waits for the others
        wall.now += HOUR / 2 + 1
        applied = await service.run_deadlines()
        # each seat still to choose had the round's deadline; a bot chose for each
        assert sorted(applied) == sorted((table_id, f"p{s + 1}") for s in rest)
        assert table.actions == 1 + len(rest)
        assert table.deadlines is not None
        # the next turn's seats wait for their people again, with deadlines from now
        for seat in table.state.to_act():
            assert table.deadlines.due[seat] == wall.now + HOUR


async def test_deadlines_outlive_a_restart(database_url: str, bot_pool: BotPool) -> None:
    wall = Wall()
    async with started_service(database_url, bot_pool, wall) as first:
        table_id, _ = await _turn_table(first, "forfeit")
    wall.now += HOUR + 60
    async with started_service(database_url, bot_pool, wall) as again:
        table = await again.table(table_id)
        assert table.turn is not None and table.status == "playing"
        await again.run_deadlines()
        assert table.status == "finished" and table.outcome is not None


def test_the_api_makes_a_turn_based_table(client: TestClient) -> None:
    body = {"game": GAME, "players": 2, "turn": {"move_s": 86400, "on_deadline": "forfeit"}}
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    assert made.json()["turn"]["move_ms"] == 86_400_000 and made.json()["clock"] is None
    both = {**body, "clock": {"base_s": 60}}
    refused = client.post("/api/tables", json=both)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_request"
    short = {**body, "turn": {"move_s": 5}}
    assert client.post("/api/tables", json=short).status_code in (400, 422)


def test_my_games_shows_a_turn_based_seats_deadline_nearest_first(
    roomy_client: TestClient,
) -> None:
    """Someone who plays over days sees, on any device, which tables wait for them and
    until when: their turn first, the nearest deadline first."""
    from .accountdrive import page, signup
    from .wsdrive import join

    client = roomy_client
    me = signup(client, "dana")

    def table_waiting_for_dana(move_s: int) -> str:
        # who moves first may be dealt: tables are made until one waits for p1
        for _ in range(30):
            body = {"game": GAME, "players": 2, "turn": {"move_s": move_s, "on_deadline": "bot"}}
            table = client.post("/api/tables", json=body, headers=page(me)).json()["id"]
            joined = client.post(
                f"/api/tables/{table}/join", json={"seat": "p1", "nickname": "x"}, headers=page(me)
            )
            assert joined.status_code == 200, joined.text
            saved = dict(client.cookies)
            client.cookies.clear()
            join(client, table, "p2", "guest")
            client.cookies.update(saved)
            if (
                client.get(f"/api/tables/{table}")
                .json()
                .get("turn", {})
                .get("deadlines", {})
                .get("p1")
            ):
                return table
        raise AssertionError("no table waited for p1")

    day, hour = table_waiting_for_dana(86_400), table_waiting_for_dana(3_600)
    games = client.get("/api/me/games").json()["active"]
    for entry in games:
        assert entry["turn"]["move_ms"] in (86_400_000, 3_600_000)
        assert (entry["deadline"] is not None) == entry["your_turn"], entry
    waiting = [g["table"] for g in games if g["your_turn"]]
    assert waiting[:2] == [hour, day], games  # the hour's deadline is nearer: first
    first = next(g for g in games if g["table"] == hour)
    assert first["deadline"] < next(g for g in games if g["table"] == day)["deadline"]


async def test_a_deadline_nobody_can_apply_is_retried_not_spun(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A late seat whose policy cannot be applied now (no bot workers) is looked at
    again after a pause: the deadline task must not spin the CPU re-running it."""
    wall = Wall()
    async with started_service(database_url, None, wall) as service:
        table_id, _ = await _turn_table(service, "bot")
        runs = 0
        real = service.run_deadlines

        async def counted() -> list[tuple[str, str]]:
            nonlocal runs
            runs += 1
            if runs > 50:  # a spinning task never yields: break it so the test can fail
                raise RuntimeError("spinning")
            return await real()

        monkeypatch.setattr(service, "run_deadlines", counted)
        wall.now += 2 * HOUR
        service.wall_moved()
        await asyncio.sleep(1.2)
        assert 1 <= runs <= 5, f"the deadline task ran {runs} times in 1.2 s"
        assert (await service.table(table_id)).actions == 0
