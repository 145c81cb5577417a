"""Goofspiel for learning libraries: observation from ``view(seat)`` only; ``bid V`` is ``V - 1``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decklab.engine.features import Features, seat_order

VERSION = 0
HAS_CHANCE = True


def action_space_size(num_players: int, options: Mapping[str, Any]) -> int:
    return int(options["cards"])


def action_index(num_players: int, options: Mapping[str, Any], action: int) -> int:
    return action - 1


def max_game_length(num_players: int, options: Mapping[str, Any]) -> int:
    return int(options["cards"]) * num_players


def encode(view: Mapping[str, Any], num_players: int, options: Mapping[str, Any]) -> Features:
    top = int(view["cards"])
    order = seat_order(view, num_players)
    slots = {v: v - 1 for v in range(1, top + 1)}
    f = Features()
    f.one_hot("prize", None if view["prize"] is None else view["prize"] - 1, top, "the prize")
    f.number("round", view["round"], top, "round / cards")
    total = top * (top + 1) / 2
    f.numbers("scores", [view["scores"][name] for name in order], total, "/ all prize points")
    for r, name in enumerate(order):
        f.counts(f"hand[{r}]", view["hands"][name], slots, "values seat r still holds")
    f.numbers("chosen", [1.0 if view["chosen"][name] else 0.0 for name in order])
    turned = [r["prize"] for r in view["rounds"]]
    f.counts("turned", turned, slots, "prizes already turned")
    f.one_hot("my_bid", (view.get("my_bid") or 0), top + 1, "0 not bid yet, else my bid")
    return f
