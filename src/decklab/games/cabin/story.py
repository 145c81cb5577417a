"""The Cabin by the Sea told as it happens: each card the sea washes up, each card taken,
lost to the squid or sunk to the deep sea, by name (C3–C5).

Reads views only: every card named here is one the player has just seen.
"""

from __future__ import annotations

from typing import Any

from decklab import cards
from decklab.engine.story import Moment

_FROM = {"cabin": "the cabin pile", "beach": "the beach", "deep": "the deep sea"}


def _name(text: str) -> str:
    return f"the {cards.name(cards.parse(text))} ({text})"


def _points(text: str) -> int:
    """C5: an ace or a face card costs 2 squid points, a number card 1."""
    r = cards.parse(text) & 15
    return 2 if r == cards.ACE or r >= cards.JACK else 1


def _new(before: list[str], after: list[str]) -> list[str]:
    """Cards on top of a top-first pile that were not there before (in the order they came)."""
    extra = len(after) - len(before)
    return list(reversed(after[:extra])) if extra > 0 else []


def narrate(moment: Moment) -> list[str]:
    before, after = moment.before, moment.after
    action = moment.action
    out: list[str] = []
    taken_from = action.split()[-1] if action.startswith(("take", "anchor ")) else None
    lost = _new(before["squid"], after["squid"])
    deep = _new(before["deep"], after["deep"])
    if action.startswith("anchor") and deep:
        deep = deep[1:]  # the anchored sea card went down by the player's own choice
    if taken_from in _FROM:
        source = _FROM[taken_from]
        if lost:
            out.append(f"From {source} comes {_name(lost[0])}: it cannot be built anywhere.")
        elif after["card"] and after["card_from"] == taken_from:
            out.append(f"From {source} comes {_name(after['card'])}: it must be built (C3).")
    for text in lost:
        out.append(
            f"The squid takes {_name(text)}: +{_points(text)} squid points "
            f"({after['squid_points']} in all)."
        )
    for text in deep:
        name = _name(text)
        out.append(f"{name[0].upper()}{name[1:]} can go nowhere and sinks to the deep sea (C3).")
    if after["card"] and after["card_from"] == "sea" and after["sea"] < before["sea"]:
        out.append(f"The sea washes up {_name(after['card'])}.")
    top_before = before["beach"]["seen"][:1]
    top_after = after["beach"]["seen"][:1]
    if top_after and top_after != top_before and not action.startswith("dump"):
        out.append(f"The beach now shows {_name(top_after[0])}.")
    if after["terminal"] and not before["terminal"]:
        points = after["squid_points"]
        out.append(
            "A perfect game!" if points == 0 else f"The game is over: {points} squid points."
        )
    return out


def score_rows(view: dict[str, Any]) -> dict[str, list[tuple[str, float]]]:
    """C5: the squid pile, card by card kind (aces and faces 2, numbers 1)."""
    squid = view["squid"]
    high = [c for c in squid if _points(c) == 2]
    low = [c for c in squid if _points(c) == 1]
    rows: list[tuple[str, float]] = []
    if high:
        rows.append((f"squid: {len(high)} aces and faces ({' '.join(high)})", 2 * len(high)))
    if low:
        rows.append((f"squid: {len(low)} number cards ({' '.join(low)})", len(low)))
    return {"p1": rows or [("the squid pile is empty: a perfect game", 0)]}


def explain_action(view: dict[str, Any], action: str) -> str | None:
    words = action.split()
    card = view.get("card")
    if words and words[0] == "build" and len(words) == 3 and card:
        if words[2] == "new":
            return f"starts a new stack with {card} ({len(view['stacks']) + 1} of {view['stacks_allowed']})"
        stack = view["stacks"].get(words[2], [])
        top = f" on its {stack[-1]}" if stack else ""
        return f"builds {card} on {words[2]}{top}"
    if words and words[0] == "anchor" and card:
        where = _FROM.get(words[-1], "")
        return f"lets {card} go to the deep sea" + (f" and takes from {where}" if where else "")
    if words and words[0] == "take" and len(words) == 2:
        return f"takes the top card of {_FROM.get(words[1], words[1])}"
    return None
