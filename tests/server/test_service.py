"""The table service without any transport: full games, durability, rebuild, seats."""

from __future__ import annotations

import asyncio
import os
import random
import time

import pytest

from decklab.engine import records
from decklab.engine.registry import game_names, get_game
from decklab.server.coordination import LocalCoordinator
from decklab.server.errors import ServiceError
from decklab.server.service import TableService
from decklab.server.store.db import make_engine
from decklab.server.store.queries import Store
from decklab.server.table import SeatSpec

from .conftest import fast_settings
from .drive import latest_state, play_human
from .games import solo, two_player

pytestmark = pytest.mark.anyio

GAMES = game_names()
GAME_FOR_TWO = two_player()


async def _wait_finished(service: TableService, table_id: str, timeout: float = 60.0) -> None:
    async def done() -> None:
        while (await service.table(table_id)).status != "finished":
            await asyncio.sleep(0.02)

    await asyncio.wait_for(done(), timeout)


@pytest.mark.parametrize("game", GAMES)
async def test_full_game_humans_and_bots(service: TableService, game: str) -> None:
    """Every game to its end through the generic interface: people on the first two
    seats (one for a game played alone), bots on the others."""
    info = get_game(game).info
    n = info.min_players
    humans = min(2, n)
    seats = [SeatSpec() for _ in range(humans)] + [SeatSpec("greedy") for _ in range(n - humans)]
    table = await service.create_table(game, n, seats, deal=7 if n == 1 else None)
    assert table.status == "waiting"
    tokens = [
        (await service.join(table.id, f"p{i + 1}", f"player {i + 1}"))[1] for i in range(humans)
    ]
    assert table.status == "playing"
    rng = random.Random(game)
    moves = await asyncio.gather(
        *(play_human(service, table, i, tokens[i], rng) for i in range(humans))
    )
    await _wait_finished(service, table.id)
    assert sum(moves) > 0
    final = await service.table(table.id)
    record = await service.record(table.id, None)
    rebuilt, _ = records.replay(record)
    assert rebuilt.result() == final.state.result() == final.outcome
    # every action a person made is in the record under their seat, once
    humans_lines = [line for line in record["actions"] if line.split()[0] in {"p1", "p2"}]
    assert len(humans_lines) == sum(moves)


async def test_rebuild_from_database_after_restart(
    database_url: str, service: TableService
) -> None:
    """A restarted service rebuilds an unfinished table exactly from the stored actions."""
    table = await service.create_table(GAMES[0], None, [])
    n = table.state.num_players
    tokens = [(await service.join(table.id, f"p{i + 1}", f"n{i}"))[1] for i in range(n)]
    rng = random.Random(1)
    acked = {}
    for step in range(12):
        state = table.state
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        text = state.action_to_string(seat, rng.choice(state.legal_actions(seat)))
        acked[step] = (
            seat,
            await service.act(table.id, tokens[seat], text, table.version, f"x{step}"),
        )
    before = records.make_record(table.state)
    version = table.version
    other = TableService(Store(make_engine(database_url)), fast_settings())
    await other.start()
    try:
        again = await other.table(table.id)
        assert again.version == version
        assert records.make_record(again.state)["actions"] == before["actions"]
        assert again.state.view(None) == table.state.view(None)
        # the rebuilt table knows its acknowledged client ids
        for step, (seat, version_acked) in acked.items():
            assert (
                await other.act(table.id, tokens[seat], "anything", 0, f"x{step}") == version_acked
            )
        assert again.actions == len(acked)
    finally:
        await other.close()
        other.store.close()


async def test_duplicate_and_stale_intents(service: TableService) -> None:
    table = await service.create_table(GAMES[0], None, [])
    n = table.state.num_players
    tokens = [(await service.join(table.id, f"p{i + 1}", f"n{i}"))[1] for i in range(n)]
    seat = table.state.to_act()[0]
    text = table.state.action_to_string(seat, table.state.legal_actions(seat)[0])
    v = table.version
    acked = await service.act(table.id, tokens[seat], text, v, "same")
    assert acked == v + 1
    # the same intent again: the same answer, applied once
    assert await service.act(table.id, tokens[seat], text, v, "same") == acked
    assert table.actions == 1
    # an intent against the old version with a new client id is stale
    nxt = table.state.to_act()[0]
    legal = table.state.action_to_string(nxt, table.state.legal_actions(nxt)[0])
    with pytest.raises(ServiceError) as err:
        await service.act(table.id, tokens[nxt], legal, v, "other")
    assert err.value.code == "stale"
    assert table.actions == 1 and table.version == acked


async def test_illegal_intent_changes_nothing(service: TableService) -> None:
    table = await service.create_table(GAMES[0], None, [])
    n = table.state.num_players
    tokens = [(await service.join(table.id, f"p{i + 1}", f"n{i}"))[1] for i in range(n)]
    seat = table.state.to_act()[0]
    other = (seat + 1) % n
    view = table.state.view(None)
    v = table.version
    for token, text in [
        (tokens[seat], "no such move"),
        (tokens[other], "pass"),
        (tokens[seat], ""),
    ]:
        with pytest.raises(ServiceError) as err:
            await service.act(table.id, token, text, v, "bad")
        assert err.value.code == "illegal"
    assert table.version == v and table.state.view(None) == view
    loaded = service.store.load(table.id)
    assert loaded is not None and loaded.actions == [] and loaded.table.version == v


async def test_tokens_forged_other_seat_and_spectator(service: TableService) -> None:
    table = await service.create_table(GAMES[0], None, [])
    n = table.state.num_players
    tokens = [(await service.join(table.id, f"p{i + 1}", f"n{i}"))[1] for i in range(n)]
    seat = table.state.to_act()[0]
    other = (seat + 1) % n
    text = table.state.action_to_string(seat, table.state.legal_actions(seat)[0])
    for token, code in [
        ("forged" * 7, "forbidden"),
        (None, "forbidden"),
        (tokens[other], "illegal"),
    ]:
        with pytest.raises(ServiceError) as err:
            await service.act(table.id, token, text, table.version, "c")
        assert err.value.code == code
    assert table.actions == 0
    # the token is stored only as a hash
    loaded = service.store.load(table.id)
    assert loaded is not None
    stored = [s.token_hash for s in loaded.seats]
    assert all(t not in str(stored) for t in tokens)
    assert all(h is not None and len(h) == 64 for h in stored)


async def test_seat_taken_and_bad_requests(service: TableService) -> None:
    table = await service.create_table(GAMES[0], None, [])
    await service.join(table.id, "p1", "ann")
    for call, code in [
        (service.join(table.id, "p1", "bob"), "seat_taken"),
        (service.join(table.id, "p9", "bob"), "bad_request"),
        (service.join(table.id, "p2", ""), "bad_request"),
        (service.create_table("no-such-game", None, []), "bad_request"),
        (service.create_table(GAMES[0], 99, []), "bad_option"),
        (service.create_table(GAMES[0], None, [SeatSpec("cheat")] * 2), "bad_request"),
        (service.create_table(GAMES[0], None, [SeatSpec("nobot")] * 2), "bad_request"),
        (service.table("nope"), "not_found"),
    ]:
        with pytest.raises(ServiceError) as err:
            await call
        assert err.value.code == code


async def test_chat_seated_only_limited_and_stored(service: TableService) -> None:
    table = await service.create_table(GAMES[0], None, [])
    _, token = await service.join(table.id, "p1", "ann")
    key, spectator = service.hub.subscribe(table, None)
    await latest_state(spectator)
    message = await service.chat(table.id, token, "  <b>hello</b>\x00 there ")
    assert message.text == "<b>hello</b> there"
    got = await asyncio.wait_for(spectator.queue.get(), 5)
    assert got["type"] == "chat" and got["text"] == "<b>hello</b> there"
    with pytest.raises(ServiceError):
        await service.chat(table.id, None, "spectators read only")
    with pytest.raises(ServiceError) as err:
        await service.chat(table.id, token, "x" * 501)
    assert err.value.code == "too_long"
    for _ in range(4):
        await service.chat(table.id, token, "again")
    with pytest.raises(ServiceError) as err:
        await service.chat(table.id, token, "one too many")
    assert err.value.code == "rate_limited"
    loaded = service.store.load(table.id)
    assert loaded is not None and loaded.chat[0].text == "<b>hello</b> there"
    service.hub.unsubscribe(table, key)


def test_migrations_head_is_known_and_upgrade_is_idempotent(database_url: str) -> None:
    from alembic.script import ScriptDirectory

    from decklab.server.store.db import HEAD, alembic_config, current_revision, upgrade

    assert ScriptDirectory.from_config(alembic_config(database_url)).get_current_head() == HEAD
    assert current_revision(database_url) is None
    upgrade(database_url)
    assert current_revision(database_url) == HEAD
    upgrade(database_url)
    assert current_revision(database_url) == HEAD


async def _random_moves(service: TableService, table_id: str, tokens: list[str], k: int) -> None:
    table = await service.table(table_id)
    rng = random.Random(k)
    for step in range(k):
        state = table.state
        if state.is_terminal():
            return
        seat = state.to_act()[0]
        text = state.action_to_string(seat, rng.choice(state.legal_actions(seat)))
        await service.act(table_id, tokens[seat], text, table.version, f"m{k}-{step}")


async def test_another_process_catches_up_move_by_move(
    database_url: str, service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second service on the same database follows the first one's moves by applying
    only the new stored actions (no replay of the game from the start), and ends in the
    same state, history and acknowledgements; after an undo it reloads the whole table."""
    table = await service.create_table(GAMES[0], None, [])
    n = table.state.num_players
    tokens = [(await service.join(table.id, f"p{i + 1}", f"n{i}"))[1] for i in range(n)]
    other = TableService(Store(make_engine(database_url)), fast_settings())
    await other.start()
    try:
        mirror = await other.table(table.id)
        full_loads = []
        original = other.store.load
        monkeypatch.setattr(
            other.store, "load", lambda tid: full_loads.append(tid) or original(tid)
        )
        for _ in range(3):
            await _random_moves(service, table.id, tokens, 4)
            await other.refresh(table.id)
            assert mirror.version == table.version and mirror.actions == table.actions
            assert mirror.state.view(None) == table.state.view(None)
            assert [s.view(i) for i in range(n) for s in (mirror.state,)] == [
                table.state.view(i) for i in range(n)
            ]
            assert mirror.entries == table.entries and mirror.acks == table.acks
        assert full_loads == [], "a move of another process was caught up by a full reload"
    finally:
        await other.close()
        other.store.close()


async def test_another_process_reloads_after_an_undo(
    database_url: str, service: TableService
) -> None:
    alone = solo()
    table = await service.create_table(alone, 1, [], deal=4)
    token = (await service.join(table.id, "p1", "ann"))[1]
    await _random_moves(service, table.id, [token], 3)
    other = TableService(Store(make_engine(database_url)), fast_settings())
    await other.start()
    try:
        mirror = await other.table(table.id)
        assert mirror.actions == table.actions == 3
        await service.undo(table.id, token, table.version)
        await _random_moves(service, table.id, [token], 2)  # the same count, other moves
        await other.refresh(table.id)
        assert mirror.version == table.version and mirror.actions == table.actions
        assert (
            records.make_record(mirror.state)["actions"]
            == records.make_record(table.state)["actions"]
        )
        assert mirror.state.view(0) == table.state.view(0)
    finally:
        await other.close()
        other.store.close()


def test_bot_pool_replaces_a_broken_pool_and_bots_play_on() -> None:
    """A worker killed from outside (out of memory, a signal) must not silence every bot."""
    import signal

    from decklab.server.bots import BotPool

    state = get_game("facade").new(2, seed=1)
    seat = state.to_act()[0]
    legal = {state.action_to_string(seat, a) for a in state.legal_actions(seat)}
    pool = BotPool(workers=1)
    try:
        assert asyncio.run(pool.choose("greedy", state, seat)) in legal
        for process in list(pool.executor._processes.values()):  # type: ignore[attr-defined]
            os.kill(process.pid, signal.SIGKILL)
            process.join(10)
        assert asyncio.run(pool.choose("greedy", state, seat)) in legal
        assert pool.restarts == 1
    finally:
        pool.close()


async def test_a_move_commits_after_the_database_dropped_its_connections(
    pg_server: object,
) -> None:
    """The commit path writes without a ping before each commit: when PostgreSQL has
    dropped its connections (a restart, an idle timeout), the next move is written on
    a fresh connection, once, and the table goes on."""
    import psycopg

    from decklab.server.pg_coordination import libpq_url
    from decklab.server.store.db import upgrade

    from .pgserver import PgServer

    assert isinstance(pg_server, PgServer)
    url = pg_server.create_database("t_dropped")
    upgrade(url)
    store = Store(make_engine(url))
    service = TableService(store, fast_settings(database_url=url))
    await service.start()
    try:
        table = await service.create_table(GAMES[0], None, [])
        n = table.state.num_players
        tokens = [(await service.join(table.id, f"p{i + 1}", f"n{i}"))[1] for i in range(n)]
        for step in range(4):
            if step == 2:  # every connection of this database but ours goes
                with psycopg.connect(libpq_url(url), autocommit=True) as admin:
                    admin.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )
            seat = table.state.to_act()[0]
            text = table.views().legal(seat)[0]
            version = await service.act(table.id, tokens[seat], text, table.version, f"d{step}")
            assert version == table.version
        assert store.version(table.id) == table.version
        loaded = store.load(table.id)
        assert loaded is not None and [a.client_id for a in loaded.actions] == [
            f"d{step}" for step in range(4)
        ]
    finally:
        await service.close()
        store.close()


async def test_finished_tables_nobody_follows_leave_memory_and_come_back(
    service: TableService,
) -> None:
    """A finished table nobody has followed for ``idle_table_s`` leaves memory; asked
    for again it is read back whole. A followed one, or one still in play, stays."""
    game = solo()
    done = await service.create_table(game, 1, [SeatSpec()], deal=3)
    token = (await service.join(done.id, "p1", "ann"))[1]
    await play_human(service, done, 0, token, random.Random(1))
    await _wait_finished(service, done.id)
    watched = await service.create_table(game, 1, [SeatSpec()], deal=4)
    other = (await service.join(watched.id, "p1", "bob"))[1]
    await play_human(service, watched, 0, other, random.Random(2))
    await _wait_finished(service, watched.id)
    key, _ = service.hub.subscribe(watched, None)
    playing = await service.create_table(game, 1, [SeatSpec()], deal=5)
    await service.join(playing.id, "p1", "cat")
    record = await service.record(done.id, None)
    idle = service.settings.idle_table_s

    assert await service.drop_idle(now=time.monotonic() + idle / 2) == []  # not yet
    later = time.monotonic() + idle + 1
    assert await service.drop_idle(now=later) == [done.id]
    assert done.id not in service.tables and {watched.id, playing.id} <= set(service.tables)
    back = await service.table(done.id)  # read back from the database
    assert back is not done and back.finished and back.version == done.version
    assert back.state.result() == done.state.result() and back.outcome == done.outcome
    assert await service.record(done.id, None) == record
    # once nobody follows it, the watched one goes too (and the one read back, again)
    service.hub.unsubscribe(watched, key)
    gone = await service.drop_idle(now=time.monotonic() + idle + 1)
    assert sorted(gone) == sorted([done.id, watched.id])
    assert playing.id in service.tables


class _SharedTables(LocalCoordinator):
    """As if other processes shared the database (the version is read back first)."""

    shared = True


async def test_a_token_seated_elsewhere_is_checked_against_the_database(
    service: TableService, database_url: str
) -> None:
    """Another process seats a person; their token works here at once, before any notice
    came, because a token this process does not know is checked against the stored
    table. Alone on its database a process knows every seat, and does not look."""
    table = await service.create_table(GAME_FOR_TWO, 2, [SeatSpec(), SeatSpec()])
    for coordinator, knows in ((_SharedTables(), True), (LocalCoordinator(), False)):
        other = TableService(Store(make_engine(database_url)), fast_settings(), None, coordinator)
        await other.start()
        try:
            stale = await other.table(table.id)
            seat = "p1" if knows else "p2"
            token = (await service.join(table.id, seat, "ann"))[1]
            if knows:
                assert await other.viewer_of(stale, token) == 0
                assert stale.version == table.version  # caught up on the way
            else:
                with pytest.raises(ServiceError) as refused:
                    await other.viewer_of(stale, token)
                assert refused.value.code == "forbidden"
            with pytest.raises(ServiceError) as forged:
                await other.viewer_of(stale, "A" * 43)
            assert forged.value.code == "forbidden"
        finally:
            await other.close()
            other.store.close()
