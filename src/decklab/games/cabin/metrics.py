"""The Cabin's notable events for the lab (``decklab.lab.hooks``).

Whether the game was perfect and the squid points are generic (winners and
scores); what needs the rules is how often the designer's alternate rule, the
beach dump (C6), was used, and how many cards ended up lost to the squid.
"""

from __future__ import annotations

from decklab.engine.state import GameState
from decklab.games.cabin.state import DUMP


def events(state: GameState) -> dict[str, int]:
    dumps = sum(1 for seat, action in state.history if seat == 0 and action == DUMP)
    return {
        "beach_dumps": dumps,
        "perfect": int(state.scores()[0] == 0),
    }
