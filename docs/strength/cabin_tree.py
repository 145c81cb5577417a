"""The Cabin: a search over what the player will *see*, with the expert's bound at its leaves.

    python docs/strength/cabin_tree.py FIRST COUNT ITERS DEPTH [C] [WORKERS]

An experiment for issue 20's 3.0 target (not wired into a bot). The expert judges a
move by the clairvoyant bound on sampled deals, so every later move is judged as if
the sampled deal were known (strategy fusion). Here the next DEPTH decisions are
planned the way a player must make them: one tree over the player's information
states, keyed by the view (what the player sees is all that a later choice may
depend on, and the unseen cards are equally likely in any order given the view, so
two histories with the same view are the same decision), each iteration on a deal
sampled afresh from the root's view (single-observer ISMCTS with transpositions).
UCB picks a move at each information state by the squid points it led to over the
samples that passed there; after DEPTH decisions (forced moves not counted), the
position is judged by the expert's own judge on one sampled deal (the bound after
the best move). DEPTH 0 is the expert's judge spread over ITERS sampled deals by UCB.

Once the sea is empty, the expert decides (its take-phase search is already exact on
the sampled deals); sea and placing decisions are the tree's. Each deal is played as
the ``expert`` agent plays it (``make_rng(N)``), paired with the expert's score and the
bound from ``cabin-2000.json``; one JSON line a deal, then the mean paired difference
with its 95% interval.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
from pathlib import Path

from decklab.games.cabin import expert
from decklab.games.cabin.state import TAKE, CabinState

HERE = Path(__file__).parent
SHARED = os.environ.get("SHARED", "") == "1"
sys.path.insert(0, str(HERE))
from cabin_rollout import paired_run, timed_deal  # noqa: E402


def view_key(state: CabinState) -> str:
    """The information state: everything the player sees."""
    return json.dumps(state.view(0), sort_keys=True)


def leaf(state: CabinState, rng: random.Random) -> float:
    """Squid points at the end, judged by the expert's judge on one sampled deal."""
    if state.is_terminal():
        return float(state.scores()[0])
    values = expert.action_values(state, 0, rng, 1, 0)
    return float(state.points) + (min(values.values()) if values else 0.0)


def tree_action(state: CabinState, rng: random.Random, iters: int, depth: int, c: float) -> int:
    """The move with the fewest squid points on average at the root of the tree.

    With SHARED set, every root move is tried on each sampled deal in turn (common
    random numbers, as the expert's samples are), and UCB chooses only below the root.
    """
    table: dict[str, dict[int, list[float]]] = {}
    root = view_key(state)
    moves = state.legal_actions(0)
    table[root] = {a: [0.0, 0.0] for a in moves}
    deal = state
    for i in range(iters):
        if not SHARED or i % len(moves) == 0:
            deal = state.determinize(0, rng)
        d = deal.clone() if SHARED else deal
        path: list[list[float]] = []
        steps = 0
        if SHARED:
            first = moves[i % len(moves)]
            path.append(table[root][first])
            d.apply(0, first)
            steps = 1
        while True:
            if d.is_terminal():
                value = float(d.scores()[0])
                break
            legal = d.legal_actions(0)
            if len(legal) == 1:
                d.apply(0, legal[0])
                continue
            if steps > depth:
                value = leaf(d, rng)
                break
            key = view_key(d)
            node = table.get(key)
            if node is None:
                node = table[key] = {a: [0.0, 0.0] for a in legal}
            fresh = [a for a in legal if node[a][0] == 0]
            if fresh:
                action = fresh[0]
            else:
                total = sum(node[a][0] for a in legal)
                log = math.log(total)
                action = min(
                    legal,
                    key=lambda a: node[a][1] / node[a][0] - c * math.sqrt(log / node[a][0]),
                )
            path.append(node[action])
            d.apply(0, action)
            steps += 1
            if fresh:
                value = leaf(d, rng)
                break
        for stats in path:
            stats[0] += 1
            stats[1] += value
    stats = table[root]
    tried = [a for a in moves if stats[a][0]]
    return min(tried, key=lambda a: (stats[a][1] / stats[a][0], moves.index(a)))


def one_deal(args: tuple[int, int, int, float]) -> dict[str, float]:
    deal, iters, depth, c = args

    def decide(state: CabinState, rng: random.Random) -> int:
        if state.phase == TAKE:
            return expert.expert_action(state.determinize(0, rng), 0, rng)
        return tree_action(state, rng, iters, depth, c)

    return timed_deal(deal, decide, "tree")


def main() -> None:
    first, count, iters, depth = (int(x) for x in sys.argv[1:5])
    c = float(sys.argv[5]) if len(sys.argv) > 5 else 2.0
    workers = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    jobs = [(d, iters, depth, c) for d in range(first, first + count)]
    summary = {
        "deals": [first, first + count - 1],
        "iters": iters,
        "depth": depth,
        "c": c,
        **paired_run(one_deal, jobs, workers, "tree"),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
