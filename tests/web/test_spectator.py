"""A spectator's page never holds a card hidden from spectators: not in its text,
not in an attribute, not in the SVG — checked against the server's true state
after every action of a whole game."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from decklab import cards

from .live import LiveServer, seat_script
from .ui import ready, version

SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "X": "stars"}
RANKS = dict(
    zip(
        "A23456789TJQK",
        [
            "ace",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "jack",
            "queen",
            "king",
        ],
        strict=True,
    )
)


def tokens(value: Any) -> set[str]:
    """Every card token (K1 notation) anywhere in a view."""
    text = json.dumps(value)
    return {t for t in re.findall(r"\b(?:10|[2-9TJQKA])[SHDCX]\b", text) if cards.is_card_text(t)}


SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663", "X": "\u2605"}


def shows(html: str, token: str) -> bool:
    """Whether a page holds a card: its token as a word, its spoken name, or the way
    the page writes it for people (``10♥`` in the log and the move labels)."""
    name = f"{RANKS[token[0]]} of {SUITS[token[1]]}"
    printed = ("10" if token[0] == "T" else token[0]) + SYMBOLS[token[1]]
    return (
        bool(re.search(rf"\b{token}\b", html))
        or name in html
        or bool(re.search(rf"(?<![0-9]){re.escape(printed)}", html))
    )


def hidden_from_spectators(live: LiveServer, table_id: str) -> set[str]:
    """Cards some seat sees that a spectator does not: what the page must never show."""
    state = live.service.tables[table_id].state
    seen_by_seats = set().union(*(tokens(state.view(s)) for s in range(state.num_players)))
    return seen_by_seats - tokens(state.view(None))


def test_a_spectator_page_never_shows_a_hidden_card(browser: Any, live: LiveServer) -> None:
    rng = random.Random(2)
    table_id = live.table("lonely-face", 2, ["open", "open"])
    holders = {seat: live.join(table_id, seat, f"player {seat}") for seat in ("p1", "p2")}
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{live.base}/table/{table_id}")
        ready(page)
        # the check bites: the same test finds p1's own hidden cards on p1's page
        seated = context.new_page()
        seated.goto(live.base + "/")
        seat_script(seated, table_id, holders["p1"], "p1", "player p1")
        seated.goto(f"{live.base}/table/{table_id}")
        ready(seated)
        seated.wait_for_selector(".felt-wrap[data-version] .felt")
        own = seated.content()
        assert any(shows(own, t) for t in hidden_from_spectators(live, table_id))
        seated.close()
        checked = 0
        hidden_ever = 0
        while True:
            table = live.service.tables[table_id]
            page.wait_for_function(
                "v => Number(document.querySelector('.felt-wrap')?.dataset.version) === v",
                arg=table.version,
            )
            hidden = hidden_from_spectators(live, table_id)
            hidden_ever += len(hidden)
            html = page.content().replace(table_id, "")
            for token in hidden:
                assert not shows(html, token), token
            # what the spectator's page shows is built from the spectator's view only
            assert page.get_attribute(".felt", "data-viewer") == "spectator"
            assert page.locator(".all-moves").count() == 0
            checked += 1
            state = table.state
            if state.is_terminal():
                break
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            text = state.action_to_string(seat, action)
            live.call(
                "POST",
                f"/api/tables/{table_id}/actions",
                {"action": text, "version": table.version, "client_id": f"c{checked}"},
                token=holders[f"p{seat + 1}"],
            )
        assert checked > 10
        assert hidden_ever > 0  # the check had something to find
        assert version(page) == live.service.tables[table_id].version
    finally:
        context.close()
