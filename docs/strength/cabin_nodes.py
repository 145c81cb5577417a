"""The Cabin: the expert with solver nodes on top of the bound, paired per deal.

    python docs/strength/cabin_nodes.py FIRST COUNT NODES [SAMPLES] [WORKERS] [PENALTY]

PENALTY (squid points, default 0) is added to "anchor cabin"'s mean before the
lowest is played: a probe of whether the sampled bound over-rates taking the
unseen cabin card.

NODES < 0: |NODES| nodes only once the sea is empty (the take phase, C4), the
bound alone before; with SEA_LEFT (env, default -1) also on sea turns with at most
that many sea cards still face down.

The expert's own judge (``expert.expert_action``) with ``nodes`` solver nodes per
choice and sampled deal on top of the admissible bound (``_evaluate``), asked as
the ``expert`` agent asks it (a sampled deal first, ``make_rng(N)``); paired with
the expert's score and the bound from ``cabin-2000.json``. One JSON line a deal,
then the mean paired difference with its 95% interval.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

from decklab.games.cabin import expert
from decklab.games.cabin.state import ANCHOR_CABIN, TAKE, CabinState

HERE = Path(__file__).parent
SEA_LEFT = int(os.environ.get("SEA_LEFT", "-1"))
sys.path.insert(0, str(HERE))
from cabin_rollout import paired_run, timed_deal  # noqa: E402


def one_deal(args: tuple[int, int, int, float]) -> dict[str, float]:
    deal, nodes, samples, penalty = args

    def decide(state: CabinState, rng: random.Random) -> int:
        legal = state.legal_actions(0)
        sample = state.determinize(0, rng)
        late = state.phase == TAKE or len(state.sea) <= SEA_LEFT
        budget = nodes if nodes >= 0 else (-nodes if late else 0)
        values = expert.action_values(sample, 0, rng, samples, budget)
        if ANCHOR_CABIN in values:
            values[ANCHOR_CABIN] += penalty
        return min(values, key=lambda a: (values[a], legal.index(a))) if values else legal[0]

    return timed_deal(deal, decide, "nodes")


def main() -> None:
    first, count, nodes = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    samples = int(sys.argv[4]) if len(sys.argv) > 4 else expert.SAMPLES
    workers = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    penalty = float(sys.argv[6]) if len(sys.argv) > 6 else 0.0
    jobs = [(d, nodes, samples, penalty) for d in range(first, first + count)]
    summary = {
        "deals": [first, first + count - 1],
        "nodes": nodes,
        "samples": samples,
        "penalty": penalty,
        **paired_run(one_deal, jobs, workers, "nodes"),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
