"""The Cabin: the expert against the close-candidate rollout judge, paired per deal.

    python docs/strength/cabin_rollout.py FIRST COUNT MARGIN,ROLLOUTS,INNER,SWITCH[,DEPTH[,SEA]] \
        [WORKERS] [BASELINE]

Without DEPTH each close candidate is played out to the end (``rollout.outcomes``);
with it, a fair player makes DEPTH decisions and the bound judges the rest
(``rollout.shallow``); DEPTH -1 is "to the end". SEA 1: no rollouts once the sea
is empty (the expert's own search decides there). BASELINE: a file of
``cabin_nodes.py`` lines whose scores replace the expert's of ``cabin-2000.json``.

Deal N is ``CabinState.new(1, seed=N)``; the player is asked as the ``expert`` agent
asks a game's own expert (a sampled deal first, then the judge on it, the agent's
``make_rng(N)`` stream), so it reads only the view. The rollouts draw from a stream
of their own seeded from the agent's state without drawing from it, so the game
differs from the expert's only from the first move the judge changes. Its score is paired with the
expert's and the bound's on the same deal from ``cabin-2000.json`` (deals 0–1999,
made by ``cabin_deals.py``). One JSON line a deal (score, CPU seconds per decision,
the slowest decision, decisions judged by rollouts, moves changed from the bound's
best), then the mean paired difference rollout − expert with its 95% interval.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from decklab.bots.base import make_rng
import cabin_judges as rollout  # noqa: E402  (this folder: the experiment's judges)
from decklab.games.cabin.state import TAKE, CabinState

HERE = Path(__file__).parent


def timed_deal(
    deal: int, decide: Callable[[CabinState, random.Random], int], name: str
) -> dict[str, float]:
    """Deal ``deal`` played to the end as the ``expert`` agent plays it (``make_rng(N)``),
    ``decide`` asked at every decision with more than one legal move and timed (CPU):
    the deal, the score under ``name``, the mean and the slowest CPU a decision, and how
    many were asked."""
    state = CabinState.new(1, seed=deal)
    rng = make_rng(deal)
    cpu = slowest = 0.0
    decisions = 0
    while not state.is_terminal():
        legal = state.legal_actions(0)
        if len(legal) == 1:
            state.apply(0, legal[0])
            continue
        start = time.process_time()
        action = decide(state, rng)
        took = time.process_time() - start
        cpu += took
        slowest = max(slowest, took)
        decisions += 1
        state.apply(0, action)
    return {
        "deal": deal,
        name: state.scores()[0],
        "cpu": cpu / max(1, decisions),
        "slowest": slowest,
        "decisions": decisions,
    }


def one_deal(args: tuple[int, tuple[float, int, int, float, int, int]]) -> dict[str, float]:
    deal, (margin, rollouts, inner, switch, depth, sea_only) = args
    counts = {"judged": 0, "changed": 0}

    def decide(state: CabinState, rng: random.Random) -> int:
        sample = state.determinize(0, rng)
        order = rollout.candidates(sample, 0, rng, margin)
        action = order[0]
        if len(order) > 1 and (sea_only <= 0 or state.phase != TAKE):
            # a stream of its own, seeded from the agent's without drawing from it: where
            # the judge keeps the bound's best, the game goes on exactly as the expert's
            sub = random.Random(str(rng.getstate()))
            if depth < 0:
                got = rollout.outcomes(sample, 0, sub, order, rollouts, inner)
            else:
                got = rollout.shallow(sample, 0, sub, order, rollouts, depth, inner)
            action = rollout.choose(got, order, switch)
            counts["judged"] += 1
            counts["changed"] += action != order[0]
        return action

    return {**timed_deal(deal, decide, "rollout"), **counts}


def interval(xs: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return mean, half


def paired_run(
    one_deal: Callable[[Any], dict[str, float]], jobs: list[Any], workers: int, name: str
) -> dict[str, Any]:
    """``one_deal`` over ``jobs`` (one a deal, first item the deal), each row printed as a
    JSON line with the bound and the expert's score from ``cabin-2000.json``; what comes
    back is the score under ``name`` against the bound and, paired, against the expert
    (95% intervals), and the CPU a decision."""
    known = {row["deal"]: row for row in json.loads((HERE / "cabin-2000.json").read_text())["rows"]}
    rows = []
    with ProcessPoolExecutor(workers) as pool:
        for row in pool.map(one_deal, jobs):
            row["bound"] = known[row["deal"]]["clairvoyant"]
            row["expert"] = known[row["deal"]]["expert"]
            rows.append(row)
            print(json.dumps(row), flush=True)
    return {
        "gap": list(interval([r[name] - r["bound"] for r in rows])),
        "minus_expert": list(interval([r[name] - r["expert"] for r in rows])),
        "cpu_per_decision": statistics.fmean(r["cpu"] for r in rows),
        "slowest": max(r["slowest"] for r in rows),
    }


def main() -> None:
    first, count = int(sys.argv[1]), int(sys.argv[2])
    m, r, i, s, *d = sys.argv[3].split(",")
    depth = int(d[0]) if d else -1
    params = (float(m), int(r), int(i), float(s), depth, int(d[1]) if len(d) > 1 else 0)
    workers = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    known = {row["deal"]: row for row in json.loads((HERE / "cabin-2000.json").read_text())["rows"]}
    if len(sys.argv) > 5:  # the expert's scores from another run (cabin_nodes.py's lines)
        for line in Path(sys.argv[5]).read_text().splitlines():
            row = json.loads(line)
            if "deal" in row:
                known[row["deal"]] = {**known[row["deal"]], "expert": row["nodes"]}
    rows = []
    with ProcessPoolExecutor(workers) as pool:
        for row in pool.map(one_deal, [(d, params) for d in range(first, first + count)]):
            row["bound"] = known[row["deal"]]["clairvoyant"]
            row["expert"] = known[row["deal"]]["expert"]
            rows.append(row)
            print(json.dumps(row), flush=True)
    diff, half = interval([r["rollout"] - r["expert"] for r in rows])
    gap_r, half_r = interval([r["rollout"] - r["bound"] for r in rows])
    gap_e, half_e = interval([r["expert"] - r["bound"] for r in rows])
    print(
        json.dumps(
            {
                "deals": [first, first + count - 1],
                "params": sys.argv[3],
                "rollout_gap": [gap_r, half_r],
                "expert_gap": [gap_e, half_e],
                "rollout_minus_expert": [diff, half],
                "cpu_per_decision": statistics.fmean(r["cpu"] for r in rows),
                "slowest": max(r["slowest"] for r in rows),
                "judged_share": sum(r["judged"] for r in rows) / sum(r["decisions"] for r in rows),
                "changed_share": sum(r["changed"] for r in rows)
                / sum(r["decisions"] for r in rows),
            }
        )
    )


if __name__ == "__main__":
    main()
