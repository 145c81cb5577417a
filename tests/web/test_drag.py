"""Direct play by drag (issue 22, item 2): a card dragged onto a place makes the same
move as two taps, with pointer events, and a press that does not travel stays a tap."""

from __future__ import annotations

import json
from typing import Any

from .live import LiveServer
from .tapping import DESKTOP, new_table, open_seat
from .ui import IDLE, version, wait_turn

# a game whose moves are a card and a place split in halves (a seat face up or down)
GAME, PLAYERS = "notorious", 3


def _drag(page: Any, source: Any, target: Any) -> None:
    a, b = source.bounding_box(), target.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    for k in range(1, 9):  # in steps, as a hand moves
        x = a["x"] + a["width"] / 2 + (b["x"] + b["width"] / 2 - a["x"] - a["width"] / 2) * k / 8
        y = a["y"] + a["height"] / 2 + (b["y"] + b["height"] / 2 - a["y"] - a["height"] / 2) * k / 8
        page.mouse.move(x, y)
    page.mouse.up()


def test_a_card_dragged_onto_a_seats_half_is_played(browser: Any, live: LiveServer) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        table_id, token = new_table(live, GAME, PLAYERS)
        open_seat(page, live, table_id, token)
        assert wait_turn(page, "p1")
        page.wait_for_function(IDLE)
        card = page.locator(".felt .card-btn[data-key]").first
        key = card.get_attribute("data-key")
        half = page.locator('.felt .zone-btn[data-part="down"]').first
        seat = half.get_attribute("data-key")
        legal = page.evaluate("window.decklabTable.legal")
        wanted = [a for a in legal if {key, seat, "down"} <= set(a.split())]
        assert len(wanted) == 1, (key, seat, legal)
        before = version(page)
        played = page.evaluate("window.decklabTable.played || 0")
        _drag(page, card, half)
        page.wait_for_function(
            "([v, n]) => (window.decklabTable.played || 0) > n"
            " && Number(document.querySelector('.felt-wrap').dataset.version) > v",
            arg=[before, played],
        )
        record = json.dumps(live.call("GET", f"/api/tables/{table_id}/record", token=token))
        assert wanted[0] in record, (wanted, record[:400])
        assert not page.locator(".drag-ghost").count(), "the dragged card's ghost is gone"
        assert not errors
    finally:
        ctx.close()


def test_a_press_that_does_not_travel_is_a_tap(browser: Any, live: LiveServer) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        table_id, token = new_table(live, GAME, PLAYERS)
        open_seat(page, live, table_id, token)
        assert wait_turn(page, "p1")
        page.wait_for_function(IDLE)
        card = page.locator(".felt .card-btn[data-key]").first
        key = card.get_attribute("data-key")
        box = card.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] / 2 + 3, box["y"] + box["height"] / 2 + 2)
        page.mouse.up()
        page.wait_for_function(IDLE)
        assert page.evaluate("window.decklabTable.selected") == [key]
        assert not page.locator(".drag-ghost").count()
    finally:
        ctx.close()
