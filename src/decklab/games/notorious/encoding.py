"""Notorious for learning libraries: a fixed-size observation and a fixed action space.

Read by ``decklab.interop``. The observation is computed from ``view(seat)`` only;
seats are listed from the viewer round the table. Card counts go up to 2 where the
match plays with two decks (N1). The layout is printed in ``docs/interop.md``.

Actions (n seats; a card's slot is its place in the sorted 52-card deck, A♠ … K♠ A♥ …;
the target seat t and the face f = up 0 / down 1 are absolute seat numbers and words):

* ``play C pT up|down``: ``(slot(C)·n + t)·2 + f``;
* ``give C pT`` (tie-break, N7): ``104·n + slot(C)·n + t``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decklab import cards
from decklab.engine.features import STANDARD_SLOTS, Features, relative, seat_order
from decklab.games.notorious.state import GIVE

VERSION = 0
"""Bumped when the encoding or the action numbering changes (the env names carry it)."""

_INT_SLOTS = {cards.parse(text): i for text, i in STANDARD_SLOTS.items()}
_PHASES = ("play", "tiebreak", "over")


def action_space_size(num_players: int, options: Mapping[str, Any]) -> int:
    return 3 * len(_INT_SLOTS) * num_players


def action_index(num_players: int, options: Mapping[str, Any], action: int) -> int:
    n = num_players
    if action < GIVE:
        return (_INT_SLOTS[action >> 5] * n + ((action >> 1) & 15)) * 2 + (action & 1)
    return 2 * len(_INT_SLOTS) * n + _INT_SLOTS[(action >> 4) & 63] * n + (action & 15)


def max_game_length(num_players: int, options: Mapping[str, Any]) -> int:
    """Every decision moves one card of the (at most two) decks in front of a seat."""
    return int(options["games"]) * 2 * len(_INT_SLOTS)


def encode(view: Mapping[str, Any], num_players: int, options: Mapping[str, Any]) -> Features:
    slots = STANDARD_SLOTS
    order = seat_order(view, num_players)
    me = order[0]
    f = Features()
    f.number("match_game", view["match_game"], view["games"], "game / games")
    f.number("round", view["round"], view["rounds"], "round / rounds (0 in a tie-break)")
    f.one_hot("phase", _PHASES.index(view["phase"]), 3, "play, tiebreak, over")
    f.one_hot("lead_off", relative(view["lead_off"], order), num_players)
    f.numbers("totals", [view["totals"][name] for name in order], 100, "match totals / 100")
    f.numbers("bonus", [view["bonus"][name] for name in order], 20, "bonus points / 20")
    f.numbers("hand_counts", [view["hand_counts"][name] for name in order], 10)
    f.number("pack_count", view["pack_count"], 104)
    scores = view["game_scores"] or {}
    f.numbers("game_scores", [scores.get(name) for name in order], 100, "once the game is scored")
    tied = set(view["tied"])
    f.numbers("tied", [1.0 if name in tied else 0.0 for name in order], 1.0, "in the tie-break")
    f.one_hot("drawn_by", relative(view["drawn_by"], order), num_players)
    f.counts("hand", view["hand"], slots, "my hand")
    f.counts("drawn", [view["drawn"]], slots, "the pack card I drew and must give (N7)")
    for r, name in enumerate(order):
        entries = view["in_front"][name]
        up = [e["card"] for e in entries if e["up"]]
        down = [e["card"] for e in entries if not e["up"]]
        f.counts(f"front_up[{r}]", up, slots, "face-up cards in front of seat r")
        f.counts(f"front_down[{r}]", down, slots, "face-down cards there that I know")
        f.number(f"front_hidden[{r}]", down.count(cards.HIDDEN), 10, "face-down cards unknown")
        f.number(f"front_mine[{r}]", sum(1 for e in entries if e["by"] == me), 10, "by me")
    return f
