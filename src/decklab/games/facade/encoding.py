"""Façade for learning libraries: a fixed-size observation and a fixed action space.

Read by ``decklab.interop`` (PettingZoo, Gymnasium, OpenSpiel). The observation is
computed from ``view(seat)`` only; seats are listed from the viewer round the table.
The layout is printed in ``docs/interop.md``.

Actions (D = the draw pile's card count: 36, or 45 with ``fifth_suit``; a card's slot
is its place in the sorted draw pile, 2♠ … T♠ 2♥ … with stars last):

* ``bid B C`` (bid card ``k`` = A J Q K → 0 1 2 3 on supply card C): ``k·D + slot(C)``;
* ``place C new`` / ``place C gJ``: ``4·D + slot(C)·(D+1) + J`` (``new`` is J = 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decklab import cards
from decklab.engine.features import Features, card_slots, relative, seat_order
from decklab.games.facade.state import _PLAIN_DECK, _STARS_DECK, PLACE_BASE

VERSION = 0
"""Bumped when the encoding or the action numbering changes (the env names carry it)."""

_BID_RANKS = "AJQK"
_HOUSES = "SHDC"
_SLOTS = {False: card_slots(_PLAIN_DECK), True: card_slots(_STARS_DECK)}
_INT_SLOTS = {
    flag: {cards.parse(text): i for text, i in slots.items()} for flag, slots in _SLOTS.items()
}


def _deck_size(options: Mapping[str, Any]) -> int:
    return len(_SLOTS[bool(options["fifth_suit"])])


def action_space_size(num_players: int, options: Mapping[str, Any]) -> int:
    d = _deck_size(options)
    return 4 * d + d * (d + 1)


def action_index(num_players: int, options: Mapping[str, Any], action: int) -> int:
    slots = _INT_SLOTS[bool(options["fifth_suit"])]
    d = len(slots)
    if action < PLACE_BASE:
        return (action >> 7) * d + slots[action & 127]
    rest = action - PLACE_BASE
    return 4 * d + slots[rest >> 6] * (d + 1) + (rest & 63)


def max_game_length(num_players: int, options: Mapping[str, Any]) -> int:
    """Every phase: 4 bids a seat; every card is placed at most once."""
    d = _deck_size(options)
    return 4 * num_players * -(-d // 4) + d


def encode(view: Mapping[str, Any], num_players: int, options: Mapping[str, Any]) -> Features:
    slots = _SLOTS[bool(options["fifth_suit"])]
    d = len(slots)
    order = seat_order(view, num_players)
    f = Features()
    f.number("phase", view["phase"], view["phases"], "phase / phases")
    f.one_hot(
        "step",
        ("bidding", "placing", "over").index(view["step"]),
        3,
        "bidding, placing, over",
    )
    f.number("draw_pile", view["draw_pile"], d, "cards left in the draw pile / D")
    f.one_hot("first_bidder", relative(view["first_bidder"], order), num_players)
    for r, name in enumerate(order):
        f.one_hot(f"house[{r}]", _HOUSES.index(view["house_suits"][name]), 4, "S H D C")
    f.counts("supply", view["supply"], slots, "supply cards")
    f.counts("hand", [c[0] for c in view["hand"]], {k: i for i, k in enumerate(_BID_RANKS)})
    mine = [[0.0] * d for _ in range(4)]
    per_seat = [[0.0] * d for _ in range(num_players)]
    for bid in view["bids"]:
        r = order.index(bid["by"])
        slot = slots[bid["on"]]
        per_seat[r][slot] += 1.0
        if r == 0:
            mine[_BID_RANKS.index(bid["card"][0])][slot] = 1.0
    for k in range(4):
        f.add(f"my_bid[{_BID_RANKS[k]}]", mine[k], "where my bid card lies (one-hot over D)")
    for r in range(num_players):
        f.add(f"bids[{r}]", per_seat[r], "face-down bid cards of seat r on each card")
    f.numbers("bid_cards_left", [view["bid_cards_left"][name] for name in order], 4, "/ 4, by seat")
    taken: list[list[str]] = [[] for _ in range(num_players)]
    for t in view["last_reveal"]["taken"]:
        taken[order.index(t["by"])].append(t["card"])
    for r, name in enumerate(order):
        f.counts(f"last_taken[{r}]", taken[r], slots, "cards seat r took at the last reveal")
        f.counts(f"to_place[{r}]", view["to_place"][name], slots, "won, not yet placed")
        groups = [0.0] * d
        for j, group in enumerate(view["tableaux"][name], 1):
            for c in group:
                groups[slots[c]] = j / d
        f.add(f"tableau[{r}]", groups, "group number / D of each placed card, 0 if not placed")
    f.numbers("scores", [view["scores"][name] for name in order], 10, "points / 10, by seat")
    f.counts("discarded", view["discarded"], slots)
    return f
