"""The Cabin's judge for the ``fast`` agent (``bots/fast.py``): the expert's, made cheaper.

``fast`` asks a game's expert on one sampled deal instead of its 24
(``expert.action_values``); in the Cabin that leaves a fixed cost per decision
(reading the view, the sampler) beside the one deal's work, and the ratio to the
expert fell short of ×20. Here the one deal's work is cut instead: the solver's
moves are taken *pruned* (``root_moves(prune=True)``: a move another one
dominates on this deal is not judged, as the solver's own search does), so
fewer children get a bound. A dominated move is never better on the sampled
deal, so the best value found is the same; only a move equal to a dominating
one may go unnamed. Of the rest only the first ``WIDTH`` actions in the
solver's own move order are judged (below). And where that leaves a single
legal action standing (about two decisions in five), it is played unjudged:
its value is then only the squid points the move itself costs. Like the expert
it reads only the view.
"""

from __future__ import annotations

import random
from typing import Final

from decklab.games.cabin.expert import Decision
from decklab.games.cabin.state import CabinState

WIDTH: Final = 2
"""Actions judged per decision: the first two in the solver's move order (most promising
first). With every non-dominated action judged, ``fast`` spent 1/16–1/19 of the
expert's CPU per decision (compiled build, in play and at the bench's positions);
with two, 1/21 in play, and it scored 16.39 squid points on deals 7000–7199
against 15.82 with all of them and greedy's 18.55 (greedy − fast +2.16, +1.37 to
+2.95 per deal)."""


def action_values(
    state: CabinState, seat: int, rng: random.Random, samples: int = 1
) -> dict[int, float]:
    """The non-dominated legal actions' mean squid points still to lose, by the solver's
    bound after the move, over ``samples`` sampled deals (those a deal prunes count
    only on the deals where they stand); on one deal that leaves one action, its
    immediate cost alone (nothing to compare)."""
    decision = Decision(state, seat)
    totals: dict[int, float] = {}
    counts: dict[int, int] = {}
    for _ in range(samples):
        search, node = decision.search(rng)
        moves = decision.moves(search, node, prune=True)
        kept: list[int] = []  # the first WIDTH actions in the solver's order
        for action, _, _ in moves:
            if action not in kept:
                kept.append(action)
        kept = kept[:WIDTH]
        moves = [move for move in moves if move[0] in kept]
        lone = len(kept) == 1 and samples == 1
        best: dict[int, int] = {}
        for action, cost, child in moves:
            value = cost + (search.quick_bound(child) if child.rem and not lone else 0)
            if value < best.get(action, 1 << 30):
                best[action] = value
        for action, value in best.items():
            totals[action] = totals.get(action, 0.0) + value
            counts[action] = counts.get(action, 0) + 1
    return {a: v / counts[a] for a, v in totals.items() if a in decision.legal}
