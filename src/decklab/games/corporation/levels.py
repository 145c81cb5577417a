"""Corporation's word to the levels (``decklab.bots.levels``): the ratings a beginner's
noise picks among.

Corporation's greedy player has no ``action_values`` (the search would then prune by
them, and the fast bot judge by them), so the levels rated its moves by the generic
one-ply lookahead. In a round chosen face down that lookahead must fill in the seats
still to choose, while the seats that already chose are drawn by ``determinize``: the
first seat to choose and the last rated their moves against different opponents, and
all-beginner tables leaned to p1 (20.9% of the wins at 8 players, fair 12.5%, χ² p =
1.7e-6; issue 20, docs/strength.md). Greedy's own table model reads public fields only,
so it rates a seat's moves the same whatever its place in the order of choosing.
"""

from __future__ import annotations

import random

from decklab.games.corporation.state import CorporationState, greedy_values


def ratings(state: CorporationState, seat: int, rng: random.Random) -> dict[int, float]:
    """Each legal value's points this round as greedy expects them (higher is better)."""
    return greedy_values(state, seat)
