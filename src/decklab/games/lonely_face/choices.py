"""Lonely Face's core choices, for ``decklab restricted`` (decklab.lab.choices).

The game's tension is between taking pairs now and keeping face cards for the
+3 pairs (L10). Two of the choices look at the position:

- **taking pairs**: any move that removes a pair this turn — a ``take`` (L5), or
  a flip or swap that makes a new pair, which the player must then take (L7).
  The text alone cannot say which flips and swaps do; barring only ``take``
  would leave the pairs made by flips.
- **keeping face cards**: a swap that brings a grid face card (J, Q, K: K2) into
  the hand, out of reach of everybody's pairs.

Both read only public cards and the mover's own hand (a flip's or swap's new
pairs depend on the grid and the swapped hand card, nothing hidden).
"""

from __future__ import annotations

from typing import Any

from decklab import cards
from decklab.games.lonely_face.state import CHOOSE, LonelyFaceState
from decklab.games.lonely_face.tables import FLIP, NUM_EDGES, SWAP, TAKE


def takes_a_pair(state: LonelyFaceState, seat: int, action: int) -> bool:
    """L5/L7: a take, or a flip or swap after which a new pair must be taken."""
    if TAKE <= action < TAKE + NUM_EDGES:
        return True
    if not (FLIP <= action < FLIP + NUM_EDGES or action >= SWAP):
        return False
    after = state.clone()
    after.apply(seat, action)
    return after.phase == CHOOSE and seat in after.to_act()


def keeps_a_face_card(state: LonelyFaceState, seat: int, action: int) -> bool:
    """L5/K2: a swap whose grid card, which goes into the hand, is a J, Q or K."""
    if action < SWAP:
        return False
    card = state.grid[action & 15]
    return card != 0 and cards.is_face(card)


def choices() -> list[dict[str, Any]]:
    return [
        {
            "name": "taking pairs",
            "when": takes_a_pair,
            "about": "remove a pair: a take, or a flip or swap that makes one (L5, L7)",
        },
        {
            "name": "keeping face cards",
            "when": keeps_a_face_card,
            "about": "swap a face card off the grid into the hand (L5)",
        },
        {
            "name": "giving up face cards",
            "pattern": r"^swap [JQK]",
            "about": "swap a face card out of the hand onto the grid (L5)",
        },
    ]
