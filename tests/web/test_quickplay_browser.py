"""Quick play from the lobby (issue 21, item 5): a person asks for a crowd game with the
shortest wait; the waiting view shows them seated and the countdown; at the deadline
bots of the chosen level take the empty seats and the page shows the game."""

from __future__ import annotations

import re
from typing import Any

from decklab.engine.registry import game_names, get_game

from .live import LiveServer
from .ui import ready

GAME = next(
    name
    for name in game_names()
    if get_game(name).info.max_players >= 5 and get_game(name).info.min_players <= 4
)
"""A game for a crowd, chosen by what it is."""


def test_quick_play_fills_with_bots_after_the_wait(page: Any, live: LiveServer) -> None:
    page.goto(live.base + "/")
    ready(page)
    page.fill("#nick", "quinn")
    page.dispatch_event("#nick", "change")
    box = page.locator(f"form[data-quickplay='{GAME}']")
    box.locator(f"#qp-{GAME}-min").fill("4")
    box.locator(f"#qp-{GAME}-max").fill("4")
    box.locator(f"#qp-{GAME}-wait").select_option("10")
    box.locator(f"#qp-{GAME}-level").select_option("beginner")
    box.locator("button[type=submit]").click()
    waiting = page.locator(".quickplay-waiting")
    waiting.locator(".countdown").wait_for()
    assert "1 of 4 seated: quinn" in waiting.inner_text()
    assert int(waiting.locator(".countdown").get_attribute("data-seconds") or 0) <= 10
    page.wait_for_url(re.compile(r"/table/[\w-]+$"), timeout=30000)
    table_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector(".felt-wrap")
    seats = live.call("GET", f"/api/tables/{table_id}")["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot", "bot"]
    assert {s["bot"] for s in seats[1:]} == {"beginner"}
    assert not page.js_errors
