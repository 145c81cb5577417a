"""The Cabin by the Sea for learning libraries: a fixed-size observation, a fixed action space.

Read by ``decklab.interop``. The observation is computed from ``view(seat)`` only (the
Cabin has one seat, and its spectator sees the same). The layout is printed in
``docs/interop.md``.

Actions: the engine's own numbers, which are already small and fixed — 0 … 7
``build C s1`` … ``build C s8`` (C is the card in hand), 8 ``build C new``,
9 ``anchor cabin``, 10 ``anchor beach``, 11 ``anchor``, 12 ``dump``, 13 ``take deep``,
14 ``take beach``, 15 ``take cabin``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decklab.engine.features import STANDARD_SLOTS, Features
from decklab.games.cabin.state import TAKE_CABIN

VERSION = 0
"""Bumped when the encoding or the action numbering changes (the env names carry it)."""

_STACKS = 8
_PHASES = ("sea", "place", "take", "over")
_SOURCES = ("sea", "cabin", "beach", "deep")
_KINDS = ("aces", "numbers", "faces")


def action_space_size(num_players: int, options: Mapping[str, Any]) -> int:
    return TAKE_CABIN + 1


def action_index(num_players: int, options: Mapping[str, Any], action: int) -> int:
    return action


def max_game_length(num_players: int, options: Mapping[str, Any]) -> int:
    """Each of the 52 cards is revealed, taken and built at most once each (C3, C4)."""
    return 3 * 52


def encode(view: Mapping[str, Any], num_players: int, options: Mapping[str, Any]) -> Features:
    slots = STANDARD_SLOTS
    f = Features()
    f.one_hot("phase", _PHASES.index(view["phase"]), len(_PHASES), "sea, place, take, over")
    f.counts("card", [view["card"]], slots, "the card in hand (revealed or taken)")
    from_ = view["card_from"]
    f.one_hot(
        "card_from", None if from_ is None else _SOURCES.index(from_), 4, "sea cabin beach deep"
    )
    f.number("stacks_allowed", view["stacks_allowed"], _STACKS)
    f.number("beach_dump", 1.0 if view["beach_dump"] else 0.0)
    for i in range(_STACKS):
        f.counts(f"stack[s{i + 1}]", view["stacks"].get(f"s{i + 1}", []), slots)
    f.numbers("piles", [view["sea"], view["cabin"], view["beach"]["count"]], 52, "sea cabin beach")
    seen = view["beach"]["seen"]
    f.counts("beach_top", seen[:1], slots, "the top of the beach, if seen")
    f.counts("beach_seen", seen, slots, "beach cards seen in place")
    f.number("beach_hidden", view["beach"]["hidden"], 52)
    f.counts("deep_top", view["deep"][:1], slots, "the top of the deep sea")
    f.counts("deep", view["deep"], slots, "every card in the deep sea")
    f.counts("squid", view["squid"], slots, "cards lost to the squid")
    f.number("squid_points", view["squid_points"], 68)
    for pile in ("cabin", "sea", "beach"):
        kinds = view["unseen"][pile]
        f.numbers(f"unseen[{pile}]", [kinds[k] for k in _KINDS], 16, "aces numbers faces / 16")
    return f
