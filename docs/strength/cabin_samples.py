"""Does the Cabin's expert get better with more sampled deals per decision?

    python docs/strength/cabin_samples.py --deals 200 --samples 24,64 --workers 2

Every deal ``0 … deals-1`` is played once per sample count, by
``expert_action(state, 0, rng, samples=k)`` with the deal's number as the seed,
so the comparison is paired: the same deals, the same cards. Prints each count's
mean squid points and the paired difference of the last count against the
first with its 95% interval.
"""

from __future__ import annotations

import argparse
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from decklab.games.cabin.expert import expert_action
from decklab.games.cabin.state import CabinState


def play(deal: int, counts: tuple[int, ...]) -> list[int]:
    """The expert's squid points on ``deal`` for each sample count."""
    out = []
    for samples in counts:
        state = CabinState.new(1, seed=deal)
        rng = random.Random(deal)
        while not state.is_terminal():
            state.apply(0, expert_action(state, 0, rng, samples=samples))
        out.append(int(state.scores()[0]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", default="24,64", help="comma-separated sample counts")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    counts = tuple(int(x) for x in args.samples.split(","))
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(partial(play, counts=counts), range(args.deals), chunksize=4))
    for i, k in enumerate(counts):
        print(f"samples={k}: mean {statistics.mean(r[i] for r in rows):.2f} squid points")
    diff = [r[-1] - r[0] for r in rows]
    half = 1.96 * statistics.stdev(diff) / len(diff) ** 0.5
    print(
        f"paired difference {counts[-1]} - {counts[0]}: {statistics.mean(diff):+.2f} ± {half:.2f}"
    )


if __name__ == "__main__":
    main()
