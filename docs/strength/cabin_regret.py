"""The Cabin: where the expert's squid points above the clairvoyant bound are lost.

    python docs/strength/cabin_regret.py FIRST COUNT

The expert plays deal N as the ``expert`` agent does (``make_rng(N)``); before and
after each of its decisions the clairvoyant solver gives the fewest squid points
still reachable *knowing the deal* (points already lost included). The rise
across a decision is what that move cost against a clairvoyant player (part of
it no fair player could avoid); the rises add up to the expert's score minus the
bound. Printed: the totals by phase (sea turn, placing a taken card, taking once
the sea is empty) and by the move made, and the share of decisions that cost
anything.
"""

from __future__ import annotations

import collections
import sys

from decklab.bots.base import make_rng
from decklab.games.cabin import expert
from decklab.games.cabin.solver import solve
from decklab.games.cabin.state import CabinState

PHASES = ("sea", "place", "take")


def main() -> None:
    first, count = int(sys.argv[1]), int(sys.argv[2])
    by_phase: collections.Counter[str] = collections.Counter()
    by_move: collections.Counter[str] = collections.Counter()
    decisions: collections.Counter[str] = collections.Counter()
    costly: collections.Counter[str] = collections.Counter()
    total = 0.0
    for deal in range(first, first + count):
        state = CabinState.new(1, seed=deal)
        rng = make_rng(deal)
        value = solve(state).score
        bound = value
        while not state.is_terminal():
            legal = state.legal_actions(0)
            if len(legal) == 1:
                state.apply(0, legal[0])
                continue
            phase = PHASES[state.phase]
            action = expert.expert_action(state.determinize(0, rng), 0, rng)
            name = state.action_to_string(0, action)
            kind = "build" if action < 8 else name
            state.apply(0, action)
            after = solve(state).score
            decisions[phase] += 1
            by_phase[phase] += after - value
            by_move[f"{phase}: {kind}"] += after - value
            costly[phase] += after > value
            value = after
        total += state.scores()[0] - bound
        print(deal, bound, state.scores()[0], flush=True)
    print("mean gap", total / count, "deals", count)
    for phase in PHASES:
        print(
            phase,
            "decisions",
            decisions[phase],
            "points",
            by_phase[phase] / count,
            "per deal; costly share",
            costly[phase] / max(1, decisions[phase]),
        )
    for move, pts in by_move.most_common():
        print(" ", move, round(pts / count, 3))


if __name__ == "__main__":
    main()
