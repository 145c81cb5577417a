"""Lonely Face laid out as on a real table (built from ``view`` only).

The turn card (or the die) with the turn suit, the 4×4 grid with each cell
named a1…d4 (selecting a card selects its cell, the word flips, swaps and takes
use), the main deck face down; then each player's hand (other hands show only
the cards everyone saw go in) and score pile.
"""

from __future__ import annotations

from typing import Any

from decklab import cards
from decklab.engine.layout import (
    Card,
    Row,
    Table,
    Zone,
    blank,
    card,
    display,
    pile,
    seat_names,
    you,
)

COLUMNS = "abcd"


def table(view: dict[str, Any]) -> Table:
    me = view.get("seat")
    suit = view["turn_suit"]
    symbol = cards.SUIT_SYMBOLS[cards.SUIT_LETTERS.index(suit)]
    suit_name = cards.SUIT_NAMES[cards.SUIT_LETTERS.index(suit)]
    new_pairs = {cell for pair in view.get("new_pairs", []) for cell in pair.split()}
    cells: list[Card] = []
    for r, row in enumerate(view["grid"]):
        for k, token in enumerate(row):
            name = f"{COLUMNS[k]}{r + 1}"
            if token is None:
                cells.append(blank(key=name, label=name))
            else:
                lit = name in new_pairs or (not new_pairs and token[-1] == suit)
                cells.append(card(token, key=name, label=name, highlight=lit))
    turn: Zone
    if "turn_card" in view:
        td = view["turn_deck"]
        turn = Zone(
            "Turn card",
            (card(view["turn_card"], highlight=True, key=""),),
            "row",
            note=f"{symbol} {suit_name}",
            highlight=True,
        )
        turn_pile = pile("Turn deck", td["left"], key="")
        left: tuple[Zone, ...] = (turn_pile, turn)
    else:
        die = Card("", "", suit, key="", highlight=True)
        left = (Zone("Suit die", (die,), "row", note=f"turn suit {symbol}", highlight=True),)
    grid = Zone("Grid", tuple(cells), "grid", columns=4, note=f"turn suit {symbol}")
    deck = pile("Main deck", view["main_deck_left"], key="")
    rows = [Row((*left, grid, deck), title=f"Turn {view['turn']}")]
    seats = seat_names(view, "points")
    order = ([me] if me in seats else []) + [s for s in seats if s != me]
    to_act = set(view["to_act"])
    for seat in order:
        mine = seat == me
        hand = tuple(card(t, key=None if mine else "") for t in view["hands"][seat])
        taken = tuple(card(t, key="") for t in view["piles"][seat])
        points, pairs = view["points"][seat], view["pairs"][seat]
        rows.append(
            Row(
                (
                    Zone("Hand", hand, "row" if mine else "fan", owner=seat),
                    Zone(
                        "Score pile",
                        taken,
                        "fan",
                        owner=seat,
                        count=len(taken),
                        note=f"{pairs} pair{'s' if pairs != 1 else ''}",
                    ),
                ),
                title=you(seat, me, f"{seat} — {points} pts"),
                owner=seat,
                highlight=seat in to_act,
            )
        )
    return Table("Lonely Face", tuple(rows), _status(view, symbol), me, _facts(view))


def _status(view: dict[str, Any], symbol: str) -> str:
    if view["terminal"]:
        points = ", ".join(f"{s} {v}" for s, v in view["points"].items())
        coin = f" (coin: {view['coin']})" if "coin" in view else ""
        return f"Game over — {points}{coin}."
    who = ", ".join(view["to_act"])
    if view.get("new_pairs"):
        pairs = ", ".join(p.replace(" ", "–") for p in view["new_pairs"])
        return f"{who}: take one of the new pairs ({pairs})."
    turned = f" turned {display(view['turn_card'])}" if "turn_card" in view else ""
    return f"{who}{turned}: flip, swap or take with the turn suit {symbol}."


def _facts(view: dict[str, Any]) -> tuple[str, ...]:
    n = len(view["points"])
    return (
        f"dry turns {view['dry_turns']}/{n} · quiet turns {view['quiet_turns']}/{view['stall_turns']}",
        f"first player {view['first_player']}",
    )
