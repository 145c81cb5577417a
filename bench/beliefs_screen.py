"""A short screen of inferred beliefs: ``expert`` with ``belief=K`` against ``expert``
without, each against ``greedy`` on the same duplicate deals (paired per game).

    python bench/beliefs_screen.py [--game lonely-face] [--deals 30] [--belief 32]
                                   [--tau 1.0] [--seed 9100] [--json]

Every deal is played twice, the expert in each seat, once by each expert version; a
game scores 1 for an expert win, 0.5 for a tie of winners, 0 for a loss. Reports each
version's win rate with its 95% Wilson interval, the paired difference per game with
its 95% normal interval, and the CPU time (``time.process_time``) per expert decision.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from typing import Any

from decklab.bots import make_agent
from decklab.engine.registry import get_game

Z = 1.96


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate ``wins / n``."""
    p = wins / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def play(game: str, seed: int, expert_seat: int, spec: str) -> tuple[float, float, int]:
    """One game: (the expert's result, its CPU seconds, its decisions)."""
    state = get_game(game).new(2, seed=seed)
    agents = {expert_seat: make_agent(f"{spec},seed={seed}"), 1 - expert_seat: None}
    greedy = make_agent(f"greedy:seed={seed}")
    cpu = 0.0
    decisions = 0
    while not state.is_terminal():
        seat = state.to_act()[0]
        agent = agents[seat]
        if agent is None:
            state.apply(seat, greedy.choose(state, seat))
            continue
        start = time.process_time()
        action = agent.choose(state, seat)
        cpu += time.process_time() - start
        decisions += 1
        state.apply(seat, action)
    winners = state.winners()
    result = (1.0 / len(winners)) if expert_seat in winners else 0.0
    return result, cpu, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="lonely-face")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--belief", type=int, default=32)
    parser.add_argument("--tau", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    specs = {"plain": "expert:iters=192", "belief": f"expert:belief={args.belief},tau={args.tau}"}
    results: dict[str, list[float]] = {k: [] for k in specs}
    cpu = dict.fromkeys(specs, 0.0)
    decisions = dict.fromkeys(specs, 0)
    wall = time.perf_counter()
    for deal in range(args.seed, args.seed + args.deals):
        for seat in (0, 1):
            for key, spec in specs.items():
                r, c, d = play(args.game, deal, seat, spec)
                results[key].append(r)
                cpu[key] += c
                decisions[key] += d
    n = len(results["plain"])
    diffs = [b - p for b, p in zip(results["belief"], results["plain"], strict=True)]
    mean = statistics.fmean(diffs)
    half = Z * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
    report: dict[str, Any] = {
        "game": args.game,
        "games": n,
        "belief": args.belief,
        "tau": args.tau,
        "wall_s": round(time.perf_counter() - wall, 1),
        "difference": [round(mean, 3), round(mean - half, 3), round(mean + half, 3)],
    }
    for key in specs:
        wins = sum(results[key])
        lo, hi = wilson(wins, n)
        report[key] = {
            "win_rate": round(wins / n, 3),
            "wilson95": [round(lo, 3), round(hi, 3)],
            "cpu_ms_per_decision": round(1000 * cpu[key] / max(1, decisions[key]), 1),
        }
    if args.json:
        print(json.dumps(report))
        return
    for key in specs:
        r = report[key]
        print(
            f"{specs[key]:40s} {r['win_rate']:.3f} ({r['wilson95'][0]:.3f}–{r['wilson95'][1]:.3f})"
            f"  {r['cpu_ms_per_decision']} ms CPU a decision"
        )
    d = report["difference"]
    print(
        f"paired difference (belief − plain): {d[0]:+.3f} ({d[1]:+.3f} to {d[2]:+.3f}), {n} games"
    )
    print(f"wall time {report['wall_s']} s")


if __name__ == "__main__":
    main()
