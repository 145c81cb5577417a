"""Endings that are right, as the page shows them (issue 21, item 6): who won a game
lost on time, a seat taken back from a bot, no bot banner once the game is over, a
game played alone left unfinished, a table nobody opens leaving the lobby."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from decklab.engine.registry import game_names, get_game
from decklab.server.bots import BotPool

from .live import LiveServer, Ticks, seat_script
from .ui import ready, wait_turn


def _game(wanted: Any) -> str:
    return next(name for name in game_names() if wanted(get_game(name).info))


GAME = _game(lambda i: i.min_players <= 2 <= i.max_players and not i.simultaneous)
SOLO = _game(lambda i: i.max_players == 1)


def _open(
    page: Any, live: LiveServer, table_id: str, token: str, seat: str, nickname: str = "ann"
) -> None:
    page.goto(live.base + "/")
    seat_script(page, table_id, token, seat, nickname)
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)


def _to_act(live: LiveServer, table_id: str) -> list[str]:
    return [f"p{s + 1}" for s in live.service.tables[table_id].state.to_act()]


@pytest.fixture
def hasty(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of its own whose grace period is short (a seat away goes to a bot soon)."""
    pool = BotPool(workers=1)
    try:
        with LiveServer(tmp_path, pool=pool, grace_s=0.5) as server:
            yield server
    finally:
        pool.close()


def test_a_game_lost_on_time_says_who_won(page: Any, live: LiveServer) -> None:
    clock = {"base_s": 2, "increment_s": 0, "on_timeout": "forfeit"}
    table_id = live.table(GAME, 2, ["open", "open"], clock=clock)
    token = live.join(table_id, "p1", "ann")
    live.join(table_id, "p2", "bob")
    late = _to_act(live, table_id)[0]
    winner = "p2" if late == "p1" else "p1"
    _open(page, live, table_id, token, "p1")
    page.wait_for_selector(".end:not([hidden]) .winners", timeout=20000)
    assert page.inner_text(".end .winners") == f"Won by {winner}."
    assert f"{late} ran out of time and forfeits" in page.inner_text(".end")
    # the table no longer says whose turn it was
    assert page.inner_text(".turn") == "The game is over."
    assert page.locator(".seat-turn").count() == 0
    assert "forfeits" in page.inner_text(".layout-status")
    assert page.get_attribute(".felt-wrap", "data-terminal") == "true"
    # the API says the same
    state = live.state(table_id)["state"]
    assert state["terminal"] is True and state["result"]["winners"] == [winner]
    record = live.call("GET", f"/api/tables/{table_id}/record")
    assert record["result"]["terminal"] is True and record["result"]["winners"] == [winner]
    assert page.js_errors == []


@pytest.fixture
def ticking(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of its own on an injected monotonic clock: its live clocks and grace
    periods move only when the test moves them."""
    pool = BotPool(workers=1)
    try:
        with LiveServer(tmp_path, pool=pool, ticks=Ticks()) as server:
            yield server
    finally:
        pool.close()


def test_take_my_seat_back_from_the_bot(page: Any, ticking: LiveServer) -> None:
    """A clock runs out with "a bot takes over" while the person is at the page: one
    click gives the seat back, without reloading. The clock runs out when the test
    moves the server's clock, once the page is open; the other seat's clock and both
    grace periods then stand still, so the game waits for p2 however slow the machine."""
    live = ticking
    clock = {"base_s": 60, "increment_s": 20, "on_timeout": "bot"}
    table_id = live.table(GAME, 2, ["open", "open"], clock=clock)
    token = live.join(table_id, "p1", "ann")
    other = live.join(table_id, "p2", "bob")

    def move_p2(client_id: str) -> None:
        state = live.state(table_id, other)
        move = {"action": state["state"]["legal"][0], "version": state["version"]}
        body = {**move, "client_id": client_id}
        live.call("POST", f"/api/tables/{table_id}/actions", body, token=other)

    if _to_act(live, table_id) == ["p2"]:  # p2 moves first: p1's clock is the one to run
        move_p2("b0")
    _open(page, live, table_id, token, "p1")
    assert _to_act(live, table_id) == ["p1"]
    live.tick(61)
    page.wait_for_selector('button[data-role="reclaim"]')
    assert live.service.tables[table_id].seats[0].zombie
    assert "A bot is playing your seat" in page.inner_text(".moves")
    # a locator, not the element: the page redraws on every frame (the bot is moving)
    page.locator('button[data-role="reclaim"]').click()
    page.wait_for_selector('button[data-role="reclaim"]', state="detached")
    assert not live.service.tables[table_id].seats[0].zombie
    assert "A bot is playing your seat" not in page.inner_text(".moves")
    # the bot keeps the seat no more: when p1 is to act again, the page offers the moves
    for i in range(10):
        if _to_act(live, table_id) != ["p2"]:
            break
        try:
            move_p2(f"b{i + 1}")
        except AssertionError:  # a bot move for p1 came in between: stale, read again
            continue
    assert _to_act(live, table_id) == ["p1"]
    assert wait_turn(page, "p1")
    assert page.locator(".all-moves button[data-action]").count() > 0
    assert not live.service.tables[table_id].seats[0].zombie
    assert page.js_errors == []


def test_no_bot_banner_once_the_game_is_over(page: Any, live: LiveServer) -> None:
    clock = {"base_s": 2, "increment_s": 0, "on_timeout": "bot"}
    table_id = live.table(GAME, 2, ["open", "greedy"], clock=clock)
    token = live.join(table_id, "p1", "ann")
    _open(page, live, table_id, token, "p1")
    live.wait_finished(table_id, 120)  # p1's clock ran out: bots played both seats
    assert live.service.tables[table_id].seats[0].zombie
    page.wait_for_selector(".end:not([hidden])", timeout=20000)
    assert page.locator('button[data-role="reclaim"]').count() == 0
    assert "A bot is playing your seat" not in page.inner_text("body")
    assert page.locator(".seat .zombie").count() == 0
    assert "No more moves." in page.inner_text(".moves")
    assert page.js_errors == []


def test_a_game_played_alone_and_left_stays_unfinished(page: Any, hasty: LiveServer) -> None:
    live = hasty
    table_id = live.table(SOLO, 1, ["open"], deal=7)
    token = live.join(table_id, "p1", "solo-ann")
    _open(page, live, table_id, token, "p1", "solo-ann")
    assert wait_turn(page, "p1")
    page.locator(".all-moves button[data-action]").first.click()
    page.wait_for_function("() => (window.decklabTable.played || 0) === 1")
    deadline = time.monotonic() + 10
    while live.service.tables[table_id].actions < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    page.goto(live.base + "/")  # the page is closed
    time.sleep(2.0)  # four grace periods
    table = live.service.tables[table_id]
    assert table.status == "playing" and table.actions == 1 and not table.seats[0].zombie
    stats = live.call("GET", f"/api/stats/solo-ann?game={SOLO}")["games"][SOLO]
    assert stats["games"] == 0 and stats["unfinished"] == 1 and stats["best"] is None
    # back at the page: still the person's own game, and the statistics say so
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    assert wait_turn(page, "p1")
    page.wait_for_selector(".solo dl.stats")
    shown = page.inner_text(".solo dl.stats")
    assert "games\n0" in shown and "unfinished\n1" in shown
    assert page.js_errors == []


def test_a_table_nobody_opens_plays_out_and_leaves_the_lobby(page: Any, hasty: LiveServer) -> None:
    live = hasty
    table_id = live.table(GAME, 2, ["open", "open"])
    live.join(table_id, "p1", "ann")
    live.join(table_id, "p2", "bob")
    live.wait_finished(table_id, 120)  # both seats went to bots after the grace period
    page.goto(live.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    time.sleep(0.5)
    assert page.locator(f'li[data-table="{table_id}"]').count() == 0
    assert page.js_errors == []


def _in_loop(live: LiveServer, call: Any) -> Any:
    """Run ``call()`` (a coroutine) in the live server's event loop and wait for it."""
    import asyncio

    task = live.service._deadline_task
    assert task is not None
    return asyncio.run_coroutine_threadsafe(call(), task.get_loop()).result(30)


def test_a_turn_based_table_waits_then_its_policy_applies(page: Any, hasty: LiveServer) -> None:
    """Made in the lobby with 24 hours a move: the seat waits past the grace period, the
    page shows its deadline, and when the (injected) wall clock passes it, a bot plays
    that one move."""
    live = hasty
    page.goto(live.base + "/")
    ready(page)
    page.fill("#nick", "ann")
    page.select_option("#game", GAME)
    page.fill("#turn-hours", "24")
    page.select_option("#turn-out", "bot")
    page.click("button.primary")
    page.wait_for_url("**/table/*")
    table_id = page.url.rstrip("/").split("/")[-1]
    summary = live.call("GET", f"/api/tables/{table_id}")
    assert summary["turn"]["move_ms"] == 24 * 3600 * 1000 and summary["clock"] is None
    mine = next(i for i, s in enumerate(summary["seats"]) if s["nickname"] == "ann")
    ready(page)
    # the other seats' bots move at once; then ann's seat waits, its deadline shown
    page.wait_for_selector(f'.seat .deadline[data-seat="p{mine + 1}"]')
    assert "turn-based: 24 h a move" in page.inner_text(".table-meta")
    table = live.service.tables[table_id]
    assert table.state.to_act() == (mine,)
    before = table.actions
    page.goto(live.base + "/")  # ann's page is closed
    time.sleep(1.5)  # three grace periods: a live table would have given her seat a bot
    assert table.actions == before and not table.seats[mine].zombie
    live.service.wall = lambda: time.time() + 25 * 3600
    applied = _in_loop(live, live.service.run_deadlines)
    assert applied == [(table_id, f"p{mine + 1}")]
    assert any(e.actor == mine for e in table.entries[before:])
    assert not table.seats[mine].zombie  # that one move only
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    assert page.locator('button[data-role="reclaim"]').count() == 0
    assert page.js_errors == []
