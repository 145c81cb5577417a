"""Notorious's hints in its own words: a card given face up or down, and to whom.

Read by :mod:`decklab.bots.explain`, from the player's view only: only the
player's own hand and the face-up cards are named.
"""

from __future__ import annotations

from typing import Any


def _place(view: dict[str, Any], target: str) -> str:
    return "in front of yourself" if target == view.get("seat") else f"in front of {target}"


def explain(view: dict[str, Any], action: str, alternative: str | None) -> str | None:
    words = action.split()
    if len(words) != 4 or words[0] != "play":
        return None
    card, target, side = words[1], words[2], words[3]
    mine = target == view.get("seat")
    if side == "up":
        rounds = view.get("round")
        bonus = f" (a face-up card earns its owner {6 - int(rounds)} bonus)" if rounds else ""
        why = f"gives {card} face up {_place(view, target)}{bonus}"
    else:
        why = f"gives {card} face down {_place(view, target)}, keeping its value hidden"
    if mine:
        why += ", adding to your own score while the top scorer risks disqualification"
    else:
        why += f", building {target}'s score toward the top, where the top scorer is disqualified"
    rest = [c for c in view.get("hand", []) if c != card]
    if rest:
        why += f"; keeps {' '.join(rest[:3])}{' …' if len(rest) > 3 else ''} for later"
    return why


def describe(view: dict[str, Any], action: str) -> str:
    words = action.split()
    if len(words) == 4 and words[0] == "play":
        return f"giving {words[1]} face {words[3]} {_place(view, words[2])}"
    return action
