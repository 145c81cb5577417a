"""Moderation in the page: the creator's "Remove" on a waiting table frees the seat; a
guest's "Mute" hides that name's chat lines in this browser; "Report" is stored."""

from __future__ import annotations

import time
from typing import Any

from decklab.engine.registry import game_names, get_game

from .live import LiveServer, seat_script
from .ui import ready


def _until(check: Any, limit_s: float = 10) -> None:
    deadline = time.monotonic() + limit_s
    while not check():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.05)


def test_remove_mute_and_report_from_the_page(page: Any, live: LiveServer) -> None:
    game = next(
        n for n in game_names() if get_game(n).info.min_players <= 3 <= get_game(n).info.max_players
    )
    made = live.call("POST", "/api/tables", {"game": game, "players": 3, "public": False})
    tid, creator = made["id"], made["creator_token"]
    ann = live.join(tid, "p1", "ann")
    live.join(tid, "p2", "bob")
    page.goto(live.base + "/")
    seat_script(page, tid, ann, "p1", "ann")
    page.evaluate("([id, t]) => localStorage.setItem('decklab.creator.' + id, t)", [tid, creator])
    page.goto(f"{live.base}/table/{tid}")
    ready(page)
    assert page.locator("[data-remove=p1]").count() == 0  # not one's own seat
    page.click("[data-remove=p2]")
    _until(lambda: live.call("GET", f"/api/tables/{tid}")["seats"][1]["kind"] == "open")
    page.wait_for_selector("[data-remove=p2]", state="detached")
    cat = live.join(tid, "p2", "cat")
    live.call("POST", f"/api/tables/{tid}/chat", {"text": "buy cheap gold"}, token=cat)
    line = page.locator(".chat-list li", has_text="buy cheap gold")
    line.wait_for()
    page.once("dialog", lambda dialog: dialog.accept("spam"))
    line.locator(".chat-report").click()
    page.wait_for_selector("#chat-error:has-text('Reported')")
    line.locator(".chat-mute").click()
    page.wait_for_selector(".chat-list li:has-text('buy cheap gold')", state="detached")
    page.reload()
    ready(page)
    page.wait_for_selector(".seat[data-seat=p2]:has-text('cat')")  # the sync came
    page.wait_for_selector(".chat-list", state="attached")
    assert page.locator(".chat-list li", has_text="buy cheap gold").count() == 0
