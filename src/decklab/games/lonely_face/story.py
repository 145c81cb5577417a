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


def _cell(name: str) -> tuple[int, int]:
    return int(name[1]) - 1, "abcd".index(name[0])


def _is_pair(a: str | None, b: str | None) -> bool:
    """L6: both face cards, or both of one suit."""
    if not a or not b or a == cards.HIDDEN or b == cards.HIDDEN:
        return False
    x, y = cards.parse(a), cards.parse(b)
    return (cards.is_face(x) and cards.is_face(y)) or x >> 4 == y >> 4


def _pairs(grid: list[list[str | None]]) -> set[tuple[str, str, str, str]]:
    """Every pair in the grid as (card, cell, card, cell), orthogonal neighbours only."""
    out = set()
    for r in range(4):
        for k in range(4):
            for dr, dk in ((0, 1), (1, 0)):
                r2, k2 = r + dr, k + dk
                if r2 < 4 and k2 < 4 and _is_pair(grid[r][k], grid[r2][k2]):
                    a, b = grid[r][k], grid[r2][k2]
                    assert a is not None and b is not None
                    out.add((a, f"{'abcd'[k]}{r + 1}", b, f"{'abcd'[k2]}{r2 + 1}"))
    return out


def explain_action(view: dict[str, Any], action: str) -> str | None:
    """A move in the player's terms: the pair it takes, or the new pair it makes (L7)."""
    words = action.split()
    grid: list[list[str | None]] = [list(row) for row in view["grid"]]
    if len(words) == 3 and words[0] == "take":
        (r1, k1), (r2, k2) = _cell(words[1]), _cell(words[2])
        a, b = grid[r1][k1], grid[r2][k2]
        if a and b:
            return f"takes the pair {a} {b} now ({pair_points(a, b):+d})"
        return None
    if len(words) != 3 or words[0] not in ("flip", "swap"):
        return None
    old = _pairs(grid)
    if words[0] == "flip":
        (r1, k1), (r2, k2) = _cell(words[1]), _cell(words[2])
        grid[r1][k1], grid[r2][k2] = grid[r2][k2], grid[r1][k1]
        what = f"flips {words[1]} and {words[2]}"
    else:
        r, k = _cell(words[2])
        what = f"swaps your {words[1]} for the {grid[r][k]} at {words[2]}"
        grid[r][k] = words[1]
    new = sorted(_pairs(grid) - old, key=lambda p: -pair_points(p[0], p[2]))
    if not new:
        return f"{what}; it makes no new pair"
    a, at_a, b, at_b = new[0]
    return f"{what} to make the pair {a} {b} at {at_a} {at_b} ({pair_points(a, b):+d})"
