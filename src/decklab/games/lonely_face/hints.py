"""Lonely Face's hints in its own words: the pair a move takes or makes, and what it keeps.

Read by :mod:`decklab.bots.explain`, from the player's view only: the grid is
face up and the player's own hand is theirs; the others' hands are never named.
"""

from __future__ import annotations

from typing import Any

from decklab.games.lonely_face import story


def explain(view: dict[str, Any], action: str, alternative: str | None) -> str | None:
    why = story.explain_action(view, action)
    if why is None:
        return None
    words = action.split()
    if words[0] == "take" and len(words) == 3:
        why = why.replace(" now", f" at {words[1]} {words[2]} now", 1)
    hand = list(view.get("hands", {}).get(view.get("seat"), []))
    rest = [c for c in hand if c != "??" and not (words[0] == "swap" and c == words[1])]
    if rest and words[0] in ("swap", "take", "flip"):
        why += f"; keeps {' '.join(rest)} in hand"
    turn = view.get("turn_suit")
    if turn:
        why += f" (turn suit {turn})"
    return why


def describe(view: dict[str, Any], action: str) -> str:
    words = action.split()
    grid = view["grid"]
    if len(words) == 3 and words[0] == "take":
        (r1, k1), (r2, k2) = story._cell(words[1]), story._cell(words[2])
        return f"taking the pair {grid[r1][k1]} {grid[r2][k2]}"
    if len(words) == 3 and words[0] == "flip":
        return f"flipping {words[1]} and {words[2]}"
    if len(words) == 3 and words[0] == "swap":
        r, k = story._cell(words[2])
        return f"swapping your {words[1]} for the {grid[r][k]} at {words[2]}"
    return action
