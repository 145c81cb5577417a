"""Lonely Face for learning libraries: a fixed-size observation and a fixed action space.

Read by ``decklab.interop``. The observation is computed from ``view(seat)`` only;
seats are listed from the viewer round the table. The layout is printed in
``docs/interop.md``.

Actions (E = the grid's 24 edges in reading order, a1-b1 a1-a2 b1-c1 …; a card's slot is
its place in the sorted 52-card deck, A♠ … K♠ A♥ …; cells a1 … d4 are 0 … 15):

* ``pass``: 0;
* ``flip X Y`` on edge e: ``1 + e``;
* ``take X Y`` on edge e: ``25 + e``;
* ``swap C X``: ``49 + slot(C)·16 + cell(X)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decklab import cards
from decklab.engine.features import STANDARD_SLOTS, Features, relative, seat_order
from decklab.games.lonely_face.tables import (
    CELL_OF,
    CELLS,
    EDGE_OF,
    FLIP,
    NUM_EDGES,
    PASS,
    SWAP,
    TAKE,
)

VERSION = 0
"""Bumped when the encoding or the action numbering changes (the env names carry it)."""

_INT_SLOTS = {cards.parse(text): i for text, i in STANDARD_SLOTS.items()}
_SWAP_INDEX = 1 + 2 * NUM_EDGES
_SUITS = "SHDC"


def action_space_size(num_players: int, options: Mapping[str, Any]) -> int:
    return _SWAP_INDEX + len(_INT_SLOTS) * CELLS


def action_index(num_players: int, options: Mapping[str, Any], action: int) -> int:
    if action == PASS:
        return 0
    if FLIP <= action < FLIP + NUM_EDGES:
        return 1 + action - FLIP
    if TAKE <= action < TAKE + NUM_EDGES:
        return 1 + NUM_EDGES + action - TAKE
    rest = action - SWAP
    return _SWAP_INDEX + _INT_SLOTS[rest >> 4] * CELLS + (rest & 15)


def max_game_length(num_players: int, options: Mapping[str, Any]) -> int:
    """At most 26 pairs are taken, and between two of them at most ``stall_rounds × n``
    turns (L9); a turn is at most two decisions (a move, then which new pair)."""
    return 2 * 27 * (int(options["stall_rounds"]) * num_players + 1)


def encode(view: Mapping[str, Any], num_players: int, options: Mapping[str, Any]) -> Features:
    slots = STANDARD_SLOTS
    order = seat_order(view, num_players)
    f = Features()
    f.one_hot("phase", ("play", "choose", "over").index(view["phase"]), 3)
    f.one_hot("turn_suit", _SUITS.index(view["turn_suit"]), 4, "S H D C")
    f.counts("turn_card", [view.get("turn_card")], slots, "the turned card (none with the die)")
    cell = 0
    for row in view["grid"]:
        for text in row:
            f.counts(f"grid[{cell}]", [text], slots, "the card in cell a1…d4 (none if empty)")
            cell += 1
    pairs = [0.0] * NUM_EDGES
    for text in view.get("new_pairs", []):
        x, y = (CELL_OF[w] for w in text.split())
        pairs[EDGE_OF[(x, y)]] = 1.0
    f.add("new_pairs", pairs, "edges of the new pairs to choose from (L7)")
    for r, name in enumerate(order):
        hand = view["hands"][name]
        f.counts(f"hand[{r}]", hand, slots, "hand cards of seat r that the viewer knows")
        f.number(f"hand_hidden[{r}]", sum(1 for c in hand if c == cards.HIDDEN), 4, "unknown cards")
        f.counts(f"pile[{r}]", view["piles"][name], slots, "cards in seat r's pair pile")
    f.numbers("points", [view["points"][name] for name in order], 20, "/ 20, by seat")
    f.numbers("pairs", [view["pairs"][name] for name in order], 13, "/ 13, by seat")
    f.number("main_deck_left", view["main_deck_left"], 52)
    stall = max(1, options["stall_rounds"] * num_players)
    f.numbers("turns", [view["dry_turns"], view["quiet_turns"]], stall, "dry, quiet turns / stall")
    f.one_hot("first_player", relative(view["first_player"], order), num_players)
    deck = view.get("turn_deck", {"left": 0, "turned": []})
    f.number("turn_deck_left", deck["left"], 52)
    f.counts("turned", deck["turned"], slots, "turn-deck cards turned since its last shuffle")
    f.one_hot("coin", relative(view.get("coin"), order), num_players, "the coin's holder")
    return f
