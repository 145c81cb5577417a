"""axe-core (bundled by axe-playwright-python) finds no serious or critical
violation on the lobby, every game's table, the replay viewer and the rules pages."""

from __future__ import annotations

from typing import Any

import pytest

from decklab.engine.registry import game_names, get_game

from .live import LiveServer, seat_script
from .ui import ready, wait_turn

SERIOUS = {"serious", "critical"}


def violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = results.response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v.get("impact") in SERIOUS
    ]


def test_the_lobby(page: Any, live: LiveServer) -> None:
    page.goto(live.base + "/")
    ready(page)
    page.wait_for_selector(".table-list")
    assert violations(page) == []
    assert page.locator(".game").count() == len(game_names())


@pytest.mark.parametrize("game", game_names())
def test_each_game_table(page: Any, live: LiveServer, game: str) -> None:
    info = get_game(game).info
    n = info.default_players
    table_id = live.table(game, n, ["open"] + ["greedy"] * (n - 1))
    token = live.join(table_id, "p1", "ann")
    page.goto(live.base + "/")
    seat_script(page, table_id, token, "p1", "ann")
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    assert wait_turn(page, "p1")
    assert violations(page) == []


@pytest.mark.parametrize("path", ["/rulings", *[f"/rules/{g}" for g in game_names()]])
def test_rules_pages(page: Any, live: LiveServer, path: str) -> None:
    page.goto(live.base + path)
    ready(page)
    assert page.locator("h1").count() == 1
    assert violations(page) == []


def test_the_replay_viewer(page: Any, live: LiveServer) -> None:
    table_id = live.table("lonely-face", 2, ["greedy", "greedy"])
    summary = live.wait_finished(table_id)
    page.goto(f"{live.base}/replay/{table_id}?step=3&as=p2")
    ready(page)
    page.wait_for_selector(".felt-wrap[data-step='3']")
    assert violations(page) == []
    # step through: forward, back, as a spectator; the link says where
    page.click("button[data-step=next]")
    page.wait_for_selector(".felt-wrap[data-step='4']")
    page.select_option("#as", "spectator")
    page.wait_for_function("() => location.search.includes('as=spectator')")
    page.click("button[data-step=last]")
    page.wait_for_selector(f".felt-wrap[data-step='{summary['actions']}']")
    assert "step=" in page.input_value("#share")
    page.wait_for_selector(".scores")
