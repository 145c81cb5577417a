"""The Cabin: the sampled-bound expert and the fair-rollout one on the same deals.

    python docs/strength/cabin_fair.py FIRST COUNT SAMPLES,INNER,WIDTH

One line a deal: the clairvoyant bound, each player's squid points and CPU
seconds per decision; then the mean gaps to the bound and the paired difference.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from decklab.games.cabin import expert
from decklab.games.cabin.solver import solve
from decklab.games.cabin.state import CabinState

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cabin_judges  # this folder: the fair judge

Policy = Callable[[CabinState, random.Random], int]


def play(deal: int, policy: Policy) -> tuple[float, float]:
    state = CabinState.new(1, seed=deal)
    rng = random.Random(deal)
    decisions = 0
    cpu = 0.0
    while not state.is_terminal():
        legal = state.legal_actions(0)
        start = time.process_time()
        action = legal[0] if len(legal) == 1 else policy(state, rng)
        cpu += time.process_time() - start
        decisions += len(legal) > 1
        state.apply(0, action)
    return state.scores()[0], cpu / max(1, decisions)


def main() -> None:
    first, count = int(sys.argv[1]), int(sys.argv[2])
    samples, inner, width = (int(x) for x in sys.argv[3].split(","))
    players: dict[str, Policy] = {
        "expert": lambda s, r: expert.expert_action(s, 0, r),
        "fair": lambda s, r: cabin_judges.fair_action(s, 0, r, samples, inner, width),
    }
    rows = []
    for deal in range(first, first + count):
        row: dict[str, float] = {"deal": deal, "bound": solve(CabinState.new(1, seed=deal)).score}
        for name, policy in players.items():
            row[name], row[name + "_cpu"] = play(deal, policy)
        rows.append(row)
        print(row, flush=True)
    for name in players:
        gap = statistics.fmean(r[name] - r["bound"] for r in rows)
        cpu = statistics.fmean(r[name + "_cpu"] for r in rows)
        print(name, "gap to the bound", round(gap, 2), "CPU s/decision", round(cpu, 3))


if __name__ == "__main__":
    main()
