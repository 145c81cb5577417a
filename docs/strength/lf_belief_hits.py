"""How much of the opponent's hidden hand a belief pool gets right (Lonely Face, issue 20).

    python docs/strength/lf_belief_hits.py K TAU[,TAU ...]

Plays deals 300-329 greedy against greedy; at p1's decisions from move 10 on, every
6th move, where p2 holds a card p1 has not seen, it draws 200 worlds from uniform
determinizations and from a :class:`BeliefSampler` of ``K`` worlds per ``TAU``, and
prints the share of p2's hidden cards that a drawn world puts in p2's hand (uniform
and weighted), the pool's effective size and the CPU a pool costs. A late position
whose main deck is empty has only p2's hand unseen: every method scores 1 there.
"""

from __future__ import annotations

import random
import sys
import time
from typing import cast

from decklab.bots import make_agent
from decklab.bots.beliefs import BeliefSampler
from decklab.engine.registry import get_game
from decklab.games.lonely_face.state import LonelyFaceState

DRAWS = 200


def _hit(worlds: list[LonelyFaceState], hidden: list[int]) -> float:
    """The share of ``hidden`` (p2's unseen cards) found in p2's hand, over ``worlds``."""
    found = sum(sum(c in hidden for c in w.hands[1]) for w in worlds)
    return found / len(worlds) / len(hidden)


def _mean(values: list[float], where: list[int]) -> float:
    """The mean of ``values`` at the indices ``where``, in percent."""
    return 100 * sum(values[i] for i in where) / max(len(where), 1)


def main() -> None:
    k = int(sys.argv[1])
    taus = [float(t) for t in sys.argv[2].split(",")]
    hits: dict[float, list[float]] = {t: [] for t in taus}
    sizes: dict[float, list[float]] = {t: [] for t in taus}
    cpu = dict.fromkeys(taus, 0.0)
    uniform: list[float] = []
    early: list[int] = []
    """Positions whose main deck still has cards (more unseen cards than p2's hand)."""
    cls = get_game("lonely-face")
    for deal in range(300, 330):
        state = cls.new(2, seed=deal)
        assert isinstance(state, LonelyFaceState)
        agents = [make_agent(f"greedy:seed={deal * 2 + s}") for s in range(2)]
        moves = 0
        while not state.is_terminal():
            seat = state.to_act()[0]
            hidden = [c for c in state.hands[1] if c not in state.known[1]]
            if seat == 0 and moves >= 10 and moves % 6 == 0 and hidden:
                rng = random.Random(deal * 1000 + moves)
                drawn = [state.determinize(0, rng) for _ in range(DRAWS)]
                uniform.append(_hit(drawn, hidden))
                if state.deck:
                    early.append(len(uniform) - 1)
                for tau in taus:
                    start = time.process_time()
                    pool = BeliefSampler(state, 0, k, random.Random(deal * 1000 + moves), tau)
                    cpu[tau] += time.process_time() - start
                    picked = [
                        cast(LonelyFaceState, pool.worlds[pool.index()]) for _ in range(DRAWS)
                    ]
                    hits[tau].append(_hit(picked, hidden))
                    sizes[tau].append(pool.effective)
            state.apply(seat, agents[seat].choose(state, seat))
            moves += 1
    n = len(uniform)
    print(
        f"K={k}, {n} positions: uniform {100 * sum(uniform) / n:.1f}% of p2's hidden cards; "
        f"{len(early)} with cards left in the main deck: {_mean(uniform, early):.1f}%"
    )
    for tau in taus:
        print(
            f"  tau={tau}: {100 * sum(hits[tau]) / n:.1f}% (deck left: "
            f"{_mean(hits[tau], early):.1f}%), effective size "
            f"{sum(sizes[tau]) / n:.1f} (min {min(sizes[tau]):.1f}), "
            f"{1000 * cpu[tau] / n:.1f} ms a pool"
        )


if __name__ == "__main__":
    main()
