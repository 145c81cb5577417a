"""Façade's hints in its own words: what a bid is for, what a placement builds, what it keeps.

Read by :mod:`decklab.bots.explain`, from the player's view only: the player's own
hand, the face-up supply and the tableaux; the other bids stay face down (F-rules)
and are never named.
"""

from __future__ import annotations

from typing import Any

from decklab import cards
from decklab.games.facade import story


def _keeps(view: dict[str, Any], spent: str) -> str:
    """The best card left in hand after bidding ``spent``: what the bid saves for later."""
    rest = [c for c in view.get("hand", []) if c != spent]
    if not rest:
        return ""
    best = max(rest, key=lambda c: (story._worth(c), cards.parse(c) & 15))
    return f"keeps your {best} (worth {story._worth(best)}) for a later bid"


def explain(view: dict[str, Any], action: str, alternative: str | None) -> str | None:
    why = story.explain_action(view, action)
    if why is None:
        return None
    words = action.split()
    if words[0] == "bid" and len(words) == 3:
        keeps = _keeps(view, words[1])
        if keeps:
            why += f"; {keeps}"
    return why


def describe(view: dict[str, Any], action: str) -> str:
    words = action.split()
    if len(words) == 3 and words[0] == "bid":
        return f"bidding your {words[1]} on {words[2]}"
    if len(words) == 3 and words[0] == "place":
        if words[2] == "new":
            return f"starting a new group with {words[1]}"
        return f"placing {words[1]} into {words[2]}"
    return action
