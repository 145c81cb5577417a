"""Driving the browser client as a person would: clicking cards and places."""

from __future__ import annotations

import random
from typing import Any

from decklab.engine.state import seat_index

from .live import LiveServer

Page = Any
IDLE = "() => window.decklabTable && !window.decklabTable.scheduled"


QUICK_UNDO_MS = 120
"""The undo window the tests play with: every move chosen on the cards still waits
out its window (the real path), only shorter than a person's two seconds."""


def ready(page: Page, undo_ms: int = QUICK_UNDO_MS) -> None:
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate(
        "ms => localStorage.getItem('decklab.undoMs') === null"
        " && localStorage.setItem('decklab.undoMs', String(ms))",
        undo_ms,
    )


def version(page: Page) -> int:
    value = page.get_attribute(".felt-wrap", "data-version")
    return int(value) if value else -1


def offered(page: Page) -> list[str]:
    """Every move the page offers (the full list, one click away)."""
    moves: list[str] = page.locator(".all-moves button[data-action]").evaluate_all(
        "els => els.map(e => e.dataset.action)"
    )
    return moves


def wait_turn(page: Page, seat: str, timeout: float = 30000) -> bool:
    """Wait until it is ``seat``'s turn on the page (True) or the game is over (False)."""
    page.wait_for_function(
        """seat => {
            const f = document.querySelector('.felt-wrap');
            if (!f || !f.dataset.version || !window.decklabTable || window.decklabTable.scheduled) return false;
            if (f.dataset.terminal === 'true') return true;
            return (f.dataset.toAct || '').split(' ').includes(seat)
                && document.querySelectorAll('.all-moves button[data-action]').length > 0;
        }""",
        arg=seat,
        timeout=timeout,
    )
    return page.get_attribute(".felt-wrap", "data-terminal") != "true"


def server_legal(live: LiveServer, table_id: str, seat: str) -> list[str]:
    state = live.service.tables[table_id].state
    index = seat_index(seat, state.num_players)
    if index not in state.to_act():
        return []
    return sorted(state.action_to_string(index, a) for a in state.legal_actions(index))


def play_on_cards(page: Page, rng: random.Random, action: str | None = None) -> str:
    """Choose a move by clicking the cards and places its words name; if more than
    one move is left, click it in the narrowed list. Returns the move played."""
    moves = offered(page)
    action = action or rng.choice(moves)
    before = version(page)
    played = page.evaluate("window.decklabTable.played || 0")

    def sent() -> bool:
        page.wait_for_function(IDLE)
        state: bool = page.evaluate(
            "n => (window.decklabTable.played || 0) > n || window.decklabTable.pending !== null",
            played,
        )
        return state

    for word in action.split():
        target = page.locator(f'.felt [data-key="{word}"]').first
        if target.count():
            # a person clicks the part of a fanned card that shows: its top-left corner
            corner = (
                {"x": 4, "y": 6} if "card-btn" in (target.get_attribute("class") or "") else None
            )
            target.click(position=corner)
            if sent():
                break
    else:
        narrowed = page.locator(f'.candidates button[data-action="{action}"]')
        if narrowed.count():
            narrowed.first.click()
        else:
            if not page.evaluate("document.querySelector('.all-moves').open"):
                page.click(".all-moves summary")
            page.click(f'.all-moves button[data-action="{action}"]')
    _wait_answered(page, before, played)
    return action


def click_first_move(page: Page) -> None:
    """Play the first move of the full list, and wait until the server has answered it.

    The move's frame can reach the page before the answer to its request: until then
    the page says "Playing …" and lists no moves. Reading the page between the two
    failed a test in CI ("Cannot read properties of null (reading 'open')"), so this
    waits for the list first and for the answer after."""
    page.wait_for_selector(".all-moves button[data-action]", state="attached")
    before = version(page)
    played = page.evaluate("window.decklabTable.played || 0")
    if not page.evaluate("document.querySelector('.all-moves').open"):
        page.click(".all-moves summary")
    page.locator(".all-moves button[data-action]").first.click()
    _wait_answered(page, before, played)


def _wait_answered(page: Page, before: int, played: int) -> None:
    """Wait for this page's move itself: another seat's event (a bot choosing in a
    simultaneous round) also moves the version on, so the move must be sent (after its
    undo window, if any), answered, and the version past ``before``."""
    page.wait_for_function(
        """([v, n]) => {
            const t = window.decklabTable;
            return (t.played || 0) > n && t.pending === null && t.sending === null
                && Number(document.querySelector('.felt-wrap').dataset.version) > v;
        }""",
        arg=[before, played],
    )
