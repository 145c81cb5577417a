"""Lonely Face told as it happens: the turn suit of each turn, the refills, and each
seat's pairs at the end (L4, L8, L10).

Reads views only: the grid, the turn card and the score piles are public.
"""

from __future__ import annotations

from typing import Any

from decklab import cards
from decklab.engine.story import Moment

_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def pair_points(a: str, b: str) -> int:
    """L10: two face cards +3; otherwise two hearts +1, two spades −1, clubs or diamonds 0."""
    x, y = cards.parse(a), cards.parse(b)
    if cards.is_face(x) and cards.is_face(y):
        return 3
    suit = cards.SUIT_LETTERS[x >> 4] if x >> 4 == y >> 4 else ""
    return {"H": 1, "S": -1}.get(suit, 0)


def narrate(moment: Moment) -> list[str]:
    before, after = moment.before, moment.after
    out: list[str] = []
    if after["terminal"] and not before["terminal"]:
        scores = ", ".join(
            f"{s} {p} ({after['pairs'][s]} pairs)" for s, p in after["points"].items()
        )
        out.append(f"The game is over. Points: {scores}.")
        if "coin" in after:
            out.append(f"Still tied on points and pairs: the coin goes to {after['coin']} (L11).")
        return out
    if after["turn"] != before["turn"] and after["to_act"]:
        suit = _SUITS.get(after["turn_suit"], after["turn_suit"])
        card = f"{after['turn_card']} is turned: " if "turn_card" in after else ""
        out.append(f"Turn {after['turn']}, {after['to_act'][0]}: {card}the turn suit is {suit}.")
    return out


def score_rows(view: dict[str, Any]) -> dict[str, list[tuple[str, float]]]:
    """Each pair taken and what it scored (L10), in the order taken."""
    out: dict[str, list[tuple[str, float]]] = {}
    for seat, pile in view["piles"].items():
        rows: list[tuple[str, float]] = [
            (f"pair {pile[k]} {pile[k + 1]}", pair_points(pile[k], pile[k + 1]))
            for k in range(0, len(pile) - 1, 2)
        ]
        out[seat] = rows or [("no pairs taken", 0)]
    return out


def explain_action(view: dict[str, Any], action: str) -> str | None:
    words = action.split()
    if words and words[0] == "take" and len(words) == 3:
        return f"takes the pair at {words[1]} and {words[2]} now"
    if words and words[0] == "flip":
        return f"flips {words[1]} and {words[2]} to make a new pair"
    if words and words[0] == "swap":
        return f"swaps {words[1]} from your hand into {words[2]}"
    return None
