"""Endings that are right (issue 21, item 6): a forfeit on time, a game played alone left
unfinished, a person taking their seat back from a bot, a seat whose page never opens.

Each runs on SQLite and PostgreSQL, through the service as the transports use it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

import pytest

from decklab.engine import records
from decklab.server.bots import BotPool
from decklab.server.hub import sync_frame
from decklab.server.service import TableService
from decklab.server.table import ClockSpec, SeatSpec

from .conftest import started_service
from .games import pick, solo, two_player

pytestmark = pytest.mark.anyio

GAME = two_player()
THREE = pick(lambda i: i.min_players <= 3 <= i.max_players and not i.simultaneous)


async def _until(check: Callable[[], Awaitable[bool]], timeout: float = 30.0) -> None:
    async def wait() -> None:
        while not await check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), timeout)


async def _seated(
    service: TableService, game: str, n: int, **create: object
) -> tuple[str, list[str]]:
    table = await service.create_table(game, n, [SeatSpec() for _ in range(n)], **create)  # type: ignore[arg-type]
    tokens = [(await service.join(table.id, f"p{i + 1}", f"nick{i + 1}"))[1] for i in range(n)]
    return table.id, tokens


# ------------------------------------------------------------ time forfeit
@pytest.mark.parametrize("players", [2, 3])
async def test_a_seat_out_of_time_forfeits_and_the_others_win(
    service: TableService, players: int
) -> None:
    game = GAME if players == 2 else THREE
    clock = ClockSpec(1, 0, "forfeit")
    table_id, _ = await _seated(service, game, players, clock=clock)
    table = await service.table(table_id)
    late = table.state.to_act()[0]
    late_name = f"p{late + 1}"
    others = [f"p{i + 1}" for i in range(players) if i != late]

    async def finished() -> bool:
        return (await service.table(table_id)).status == "finished"

    await _until(finished, 10.0)
    outcome = table.outcome
    assert outcome is not None
    assert outcome["terminal"] is True and outcome["forfeit"] == late_name
    assert outcome["winners"] == others
    assert outcome["ranks"][late_name] == players  # last place
    assert all(outcome["ranks"][o] == 1 for o in others)
    assert late_name in outcome["reason"] and "forfeits" in outcome["reason"]
    # what the page and the API are told: over, nobody to act, the result with its winners
    for viewer in (None, late, (late + 1) % players):
        state = sync_frame(table, viewer)["state"]
        assert state["terminal"] is True and state["to_act"] == [] and state["legal"] == []
        assert state["result"]["winners"] == others
        assert state["layout"]["status"] == outcome["reason"]
    # the record's head says how it ended; its actions still replay (to where it stopped)
    record = await service.record(table_id, None)
    assert record["result"]["terminal"] is True and record["result"]["winners"] == others
    replayed, _ = records.replay(record)
    assert not replayed.is_terminal()
    summary = table.summary()
    assert summary["status"] == "finished" and summary["outcome"]["winners"] == others


async def test_a_forfeit_is_kept_through_a_restart(database_url: str, bot_pool: BotPool) -> None:
    async with started_service(database_url, bot_pool) as first:
        table_id, _ = await _seated(first, GAME, 2, clock=ClockSpec(1, 0, "forfeit"))

        async def finished() -> bool:
            return (await first.table(table_id)).status == "finished"

        await _until(finished, 10.0)
    async with started_service(database_url, bot_pool) as again:
        table = await again.table(table_id)
        state = sync_frame(table, None)["state"]
        assert table.status == "finished" and state["terminal"] is True
        assert len(state["result"]["winners"]) == 1 and state["to_act"] == []


# ------------------------------------------------------------ games played alone
async def _one_solo_move(service: TableService, **create: object) -> tuple[str, str]:
    table_id, (token,) = await _seated(service, solo(), 1, deal=7, **create)
    table = await service.table(table_id)
    legal = sync_frame(table, 0)["state"]["legal"]
    await service.act(table_id, token, random.Random(7).choice(legal), table.version, "c1")
    return table_id, token


async def test_a_game_played_alone_and_left_is_never_finished_by_a_bot(
    database_url: str, bot_pool: BotPool
) -> None:
    async with started_service(database_url, bot_pool, grace_s=0.2) as service:
        table_id, token = await _one_solo_move(service)
        table = await service.table(table_id)
        await service.leave(table_id, token)
        table.seats[0].connections = 0
        await asyncio.sleep(1.5)  # many grace periods
        assert not table.seats[0].zombie
        assert table.status == "playing" and table.actions == 1
        stats = await service.stats("nick1", solo())
        entry = stats[solo()]
        assert entry["games"] == 0 and entry["best"] is None  # not the person's result
        assert entry["unfinished"] == 1


async def test_a_game_played_alone_out_of_time_is_unfinished_not_a_bots(
    service: TableService,
) -> None:
    """Even with "a bot takes over" asked for, the clock running out of a game played alone
    ends it unfinished: no bot plays it, and it is not in the statistics."""
    table_id, _ = await _one_solo_move(service, clock=ClockSpec(1, 0, "bot"))
    table = await service.table(table_id)

    async def finished() -> bool:
        return table.status == "finished"

    await _until(finished, 10.0)
    assert not table.seats[0].zombie and table.actions == 1
    assert table.outcome is not None and table.outcome["forfeit"] == "p1"
    assert table.outcome["winners"] == []
    entry = (await service.stats("nick1", solo()))[solo()]
    assert entry["games"] == 0 and entry["unfinished"] == 1


# ------------------------------------------------------------ taking a seat back
async def _zombied(service: TableService) -> tuple[str, list[str], int]:
    """A table of two whose seat to act left and was handed to a bot."""
    table_id, tokens = await _seated(service, GAME, 2)
    table = await service.table(table_id)
    for seat in range(2):  # both pages open
        await service.connected(table, seat)
    seat = table.state.to_act()[0]
    await service.leave(table_id, tokens[seat])  # its page stays open meanwhile

    async def zombie() -> bool:
        return table.seats[seat].zombie

    await _until(zombie, 10.0)
    return table_id, tokens, seat


async def test_take_my_seat_back_ends_the_bots_turn_keeping(
    database_url: str,
) -> None:
    async with started_service(database_url, None, grace_s=0.2) as service:
        table_id, tokens, seat = await _zombied(service)
        table = await service.table(table_id)
        key, listener = service.hub.subscribe(table, seat)
        before = table.version
        assert sync_frame(table, seat)["state"]["legal"] == []  # the bot's to play
        version = await service.reclaim(table_id, tokens[seat])
        assert version == before + 1 and not table.seats[seat].zombie
        state = sync_frame(table, seat)["state"]
        assert state["legal"] and not state["seats"][seat]["zombie"]
        kinds = []
        while not listener.queue.empty():
            frame = listener.queue.get_nowait()
            assert isinstance(frame, dict)
            kinds.append(frame.get("kind"))
        assert "reclaim" in kinds
        service.hub.unsubscribe(table, key)
        # taking back a seat that is one's own already changes nothing
        assert await service.reclaim(table_id, tokens[seat]) == version
        await service.act(table_id, tokens[seat], state["legal"][0], version, "mine")
        assert table.actions == 1


async def test_a_move_from_the_seats_token_takes_it_back(database_url: str) -> None:
    async with started_service(database_url, None, grace_s=0.2) as service:
        table_id, tokens, seat = await _zombied(service)
        table = await service.table(table_id)
        text = table.views().legal(seat)[0]
        acked = await service.act(table_id, tokens[seat], text, table.version, "back")
        # taken back (one version), then played (the next)
        assert not table.seats[seat].zombie and table.actions == 1
        assert acked == table.version
        assert table.entries[-1].actor == seat


async def test_a_bot_move_after_the_seat_is_taken_back_is_refused(
    database_url: str, bot_pool: BotPool
) -> None:
    """With bots at work: once taken back, the bot plays that seat no more."""
    async with started_service(database_url, bot_pool, grace_s=0.2) as service:
        table_id, tokens, seat = await _zombied(service)
        table = await service.table(table_id)
        await service.reclaim(table_id, tokens[seat])
        mine_before = sum(1 for e in table.entries if e.actor == seat)
        await asyncio.sleep(1.0)
        assert sum(1 for e in table.entries if e.actor == seat) == mine_before
        assert not table.seats[seat].zombie


async def test_a_seat_lost_on_time_taken_back_gets_time_to_move(database_url: str) -> None:
    """The issue's case: "a bot takes over" on time, the person still at the page."""
    async with started_service(database_url, None) as service:
        table_id, tokens = await _seated(service, GAME, 2, clock=ClockSpec(1, 0, "bot"))
        table = await service.table(table_id)
        for seat in range(2):
            await service.connected(table, seat)
        seat = table.state.to_act()[0]

        async def zombie() -> bool:
            return table.seats[seat].zombie

        await _until(zombie, 10.0)
        assert table.seats[seat].clock_ms == 0
        await service.reclaim(table_id, tokens[seat])
        # a clock of zero would run out at once and hand the seat straight back
        assert table.seats[seat].clock_ms == 1000 and seat in table.running_since
        assert not table.seats[seat].zombie
        text = table.views().legal(seat)[0]
        await service.act(table_id, tokens[seat], text, table.version, "in time")
        assert table.actions == 1 and not table.seats[seat].zombie


# ------------------------------------------------------------ a seat never opened
async def test_a_seat_whose_page_never_opens_gets_the_absence_policy(
    database_url: str, bot_pool: BotPool
) -> None:
    async with started_service(database_url, bot_pool, grace_s=0.3) as service:
        table_id, _ = await _seated(service, GAME, 2)
        table = await service.table(table_id)
        await service.connected(table, 0)  # p1's page is open; p2's never is
        listed = {t["id"] for t in await service.public_tables()}
        assert table_id in listed

        async def p2_by_bot() -> bool:
            return table.seats[1].zombie

        await _until(p2_by_bot, 10.0)
        assert not table.seats[0].zombie


async def test_a_table_nobody_opens_plays_out_and_leaves_the_lobby(
    database_url: str, bot_pool: BotPool
) -> None:
    async with started_service(database_url, bot_pool, grace_s=0.2) as service:
        table_id, _ = await _seated(service, GAME, 2)

        async def finished() -> bool:
            return (await service.table(table_id)).status == "finished"

        await _until(finished, 60.0)
        assert table_id not in {t["id"] for t in await service.public_tables()}


async def test_requests_with_the_seats_token_keep_it_from_the_bot(
    database_url: str, bot_pool: BotPool
) -> None:
    """A player through the API alone (no page) who keeps asking is not away."""
    async with started_service(database_url, bot_pool, grace_s=0.4) as service:
        table_id, tokens = await _seated(service, GAME, 2)
        table = await service.table(table_id)
        await service.connected(table, 1)
        for _ in range(12):  # 1.2 s: three grace periods
            await service.viewer_of(table, tokens[0])
            await asyncio.sleep(0.1)
        assert not table.seats[0].zombie
