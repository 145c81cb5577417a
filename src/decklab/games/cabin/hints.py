"""The Cabin by the Sea's hints in its own words: what a move builds, keeps, or lets go.

Read by :mod:`decklab.bots.explain`; from the player's view only (the sea and the
cabin pile are face down, so their cards are never named: only the card in hand,
the beach's face-up top, the stacks and the deep sea, which the player sees).
"""

from __future__ import annotations

from typing import Any

from decklab import cards

_FROM = {"cabin": "the cabin pile", "beach": "the beach", "deep": "the deep sea"}


def _points(text: str) -> int:
    """C5: an ace or a face card costs 2 squid points, a number card 1."""
    r = cards.parse(text) & 15
    return 2 if r == cards.ACE or r >= cards.JACK else 1


def _top_of(view: dict[str, Any], pile: str) -> str | None:
    """The face-up card a pile shows the player, if any (the cabin pile shows none)."""
    if pile == "beach":
        seen = view["beach"]["seen"]
        return str(seen[0]) if seen else None
    if pile == "deep":
        return str(view["deep"][0]) if view["deep"] else None
    return None


def _source(view: dict[str, Any], pile: str) -> str:
    top = _top_of(view, pile)
    where = _FROM.get(pile, pile)
    return f"{where} (its {top})" if top else f"{where} (face down)"


def _build(view: dict[str, Any], card: str, target: str) -> str:
    stacks = view["stacks"]
    if target == "new":
        left = view["stacks_allowed"] - len(stacks) - 1
        return (
            f"starts a new stack with {card}, keeping it from the squid "
            f"({_points(card)} squid point{'s' if _points(card) > 1 else ''}); "
            f"{left} new stack{'s' if left != 1 else ''} left after it"
        )
    pile = stacks.get(target, [])
    top = f" (on its {pile[-1]})" if pile else ""
    return (
        f"builds {card} on {target}{top}, keeping it from the squid "
        f"({_points(card)} squid point{'s' if _points(card) > 1 else ''}) "
        f"and leaving the stack open above {card[0]}"
    )


def explain(view: dict[str, Any], action: str, alternative: str | None) -> str | None:
    """What the move builds or lets go, with the card it concerns."""
    words = action.split()
    card = view.get("card")
    if len(words) == 3 and words[0] == "build" and card:
        return _build(view, card, words[2])
    if len(words) == 2 and words[0] == "anchor" and card:
        return (
            f"lets {card} sink to the deep sea (where it can come back later) "
            f"and takes from {_source(view, words[1])} instead"
        )
    if len(words) == 2 and words[0] == "take":
        return f"takes from {_source(view, words[1])}"
    if words and words[0] == "dump":
        return "moves the sea card onto the beach (the alternate rule), keeping it in play"
    return None


def describe(view: dict[str, Any], action: str) -> str:
    """A move as a phrase: "building 7S on s4", "taking from the beach (its JD)"."""
    words = action.split()
    card = view.get("card") or "the card"
    if len(words) == 3 and words[0] == "build":
        if words[2] == "new":
            return f"starting a new stack with {card}"
        return f"building {card} on {words[2]}"
    if len(words) == 2 and words[0] == "anchor":
        return f"letting {card} sink and taking from {_source(view, words[1])}"
    if len(words) == 2 and words[0] == "take":
        return f"taking from {_source(view, words[1])}"
    return action
