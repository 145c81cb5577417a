"""Corporation for learning libraries: a fixed-size observation and a fixed action space.

Read by ``decklab.interop``. The observation is computed from ``view(seat)`` only;
seats are listed from the viewer round the table. Within a round every seat chooses
face down (P2): the view, and so the observation, shows whether another seat has
chosen, never what. The layout is printed in ``docs/interop.md``.

Actions: ``play V`` is ``V - 1`` (V = 1 … top_value).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decklab.engine.features import Features, seat_order

VERSION = 0
"""Bumped when the encoding or the action numbering changes (the env names carry it)."""

HAS_CHANCE = False
"""Corporation deals nothing and rolls nothing: every hand is 1 … top_value (P1)."""


def action_space_size(num_players: int, options: Mapping[str, Any]) -> int:
    return int(options["top_value"])


def action_index(num_players: int, options: Mapping[str, Any], action: int) -> int:
    return action - 1


def max_game_length(num_players: int, options: Mapping[str, Any]) -> int:
    """One choice per seat per round, for at most ``max_rounds`` rounds (P7)."""
    return int(options["max_rounds"]) * num_players


def encode(view: Mapping[str, Any], num_players: int, options: Mapping[str, Any]) -> Features:
    top = int(view["top_value"])
    order = seat_order(view, num_players)
    f = Features()
    f.number("round", view["round"], view["max_rounds"], "round / max_rounds")
    f.numbers("scores", [view["scores"][name] for name in order], view["target"], "/ target")
    for r, name in enumerate(order):
        front = view["in_front"][name]
        f.one_hot(f"in_front[{r}]", front or 0, top + 1, "0 none, else the value face up (P2)")
    f.numbers("chosen", [1.0 if view["chosen"][name] else 0.0 for name in order])
    last = view["rounds"][-1] if view["rounds"] else None
    for r, name in enumerate(order):
        played = None if last is None else last[name] - 1
        f.one_hot(f"last_played[{r}]", played, top, "the value seat r played last round")
    f.counts("hand", view["hand"], {v: v - 1 for v in range(1, top + 1)}, "values I may play")
    f.one_hot("my_choice", view["my_choice"] or 0, top + 1, "0 not chosen yet, else my value")
    return f
