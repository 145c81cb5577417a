"""The ``fast`` agent's cost against ``expert``, and the Cabin paired per deal.

    python bench/fast_bot.py timing [--positions 30] [--json]
    python bench/fast_bot.py cabin [--deals 100] [--json]

``timing`` asks both agents for their move at the same positions (states
spread over seeded random games of every game, at the default table size)
and measures each call's CPU time (``time.process_time``), so that the ratio
is of work done, not of how loaded the machine was; each agent is measured
``--repeat`` times (default 5), each time in a fresh process forked from the
same start, and the median is reported. ``cabin`` plays the
same deals with ``greedy``, ``fast`` and ``expert`` (The Cabin is played
alone) and reports each mean score with the paired difference to ``fast``
and its 95% interval over deals.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from typing import Any

from decklab.bots import make_agent
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import GameState

T95 = 1.96


def positions(name: str, seed: int, count: int) -> list[GameState]:
    """``count`` states spread over seeded random games, each a real decision."""
    cls = get_game(name)
    seen: list[GameState] = []
    game = 0
    while len(seen) < 3 * count:
        rng = random.Random(seed + game)
        state = cls.new(seed=seed + game)
        while not state.is_terminal():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                seen.append(state.clone())
            state.apply(seat, rng.choice(legal))
        game += 1
    step = max(1, len(seen) // count)
    return seen[::step][:count]


def cpu_per_decision(spec: str, states: list[GameState]) -> float:
    agent = make_agent(f"{spec}{',' if ':' in spec else ':'}seed=1")
    agent.choose(states[0], states[0].to_act()[0])  # imports and caches, not timed
    spent = 0.0
    for state in states:
        seat = state.to_act()[0]
        start = time.process_time()
        agent.choose(state, seat)
        spent += time.process_time() - start
    return spent / len(states)


def _fresh(spec: str, name: str, count: int) -> float:
    """:func:`cpu_per_decision` at the timing positions, in a process of its own."""
    return cpu_per_decision(spec, positions(name, 2027, count))


def _measured(specs: list[str], name: str, count: int, repeat: int) -> list[list[float]]:
    """``repeat`` rounds of one measurement per agent, each in a fresh interpreter.

    A game may keep caches across decisions (the Cabin's solver memoizes pile
    losses): measured one after the other in one process, the first agent filled
    them for the next. A fresh interpreter per measurement (``spawn``: a forked
    child paid for copying its parent's pages on first touch, which weighed on a
    measurement of a few dozen milliseconds) starts every agent alike. The agents
    take turns within a round, so a round's ratio is taken under one load.
    """
    context = multiprocessing.get_context("spawn")
    rounds = []
    with context.Pool(1, maxtasksperchild=1) as pool:
        for _ in range(repeat):
            rounds.append([pool.apply(_fresh, (spec, name, count)) for spec in specs])
    return rounds


def timing(count: int, games: list[str], repeat: int = 5) -> list[dict[str, Any]]:
    rows = []
    for name in games or game_names():
        states = positions(name, 2027, count)
        rounds = _measured(["fast", "expert", "greedy"], name, count, repeat)
        fast, expert, greedy = (statistics.median(r[i] for r in rounds) for i in range(3))
        rows.append(
            {
                "game": name,
                "positions": len(states),
                "fast_ms": 1000 * fast,
                "expert_ms": 1000 * expert,
                "greedy_ms": 1000 * greedy,
                # the median of the rounds' ratios: each round's agents ran under one load
                "ratio": statistics.median(r[1] / r[0] for r in rounds),
                "repeat": repeat,
            }
        )
    return rows


def play_alone(spec: str, seed: int) -> float:
    cls = get_game("cabin")
    state = cls.new(1, seed=seed)
    agent = make_agent(f"{spec}{',' if ':' in spec else ':'}seed={seed}")
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, agent.choose(state, seat))
    return float(state.scores()[0])


def cabin(
    deals: int, first: int = 5000, specs: tuple[str, ...] = ("greedy", "fast", "expert")
) -> dict[str, Any]:
    scores = {s: [play_alone(s, first + d) for d in range(deals)] for s in specs}
    out: dict[str, Any] = {"deals": deals, "first": first, "mean": {}, "vs_fast": {}}
    for s in specs:
        out["mean"][s] = statistics.fmean(scores[s])
        if s != "fast":
            diffs = [a - b for a, b in zip(scores[s], scores["fast"], strict=True)]
            mean = statistics.fmean(diffs)
            half = T95 * statistics.stdev(diffs) / math.sqrt(deals)
            out["vs_fast"][s] = {"mean": mean, "low": mean - half, "high": mean + half}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("timing", "cabin"))
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument(
        "--repeat", type=int, default=5, help="timing: fresh processes per agent (the median)"
    )
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first", type=int, default=5000, help="cabin: the first deal's seed")
    parser.add_argument(
        "--agents", default="greedy,fast,expert", help="cabin: the agents, fast among them"
    )
    parser.add_argument("--game", action="append", default=[], help="only these (repeatable)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result: Any = (
        timing(args.positions, args.game, args.repeat)
        if args.what == "timing"
        else cabin(args.deals, args.first, tuple(args.agents.split(",")))
    )
    if args.json:
        print(json.dumps(result, indent=1))
    elif args.what == "timing":
        for row in result:
            print(
                f"{row['game']:12} {row['positions']:3} positions  fast {row['fast_ms']:7.2f} ms"
                f"  expert {row['expert_ms']:8.2f} ms  greedy {row['greedy_ms']:6.2f} ms"
                f"  expert/fast ×{row['ratio']:.1f}"
            )
    else:
        print(f"{result['deals']} deals")
        for spec, mean in result["mean"].items():
            print(f"  {spec:7} mean {mean:6.2f}")
        for spec, d in result["vs_fast"].items():
            print(
                f"  {spec} − fast: {d['mean']:+.2f} ({d['low']:+.2f} to {d['high']:+.2f}), per deal"
            )


if __name__ == "__main__":
    main()
