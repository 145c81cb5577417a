"""The Cabin on many seeded deals: each fair bot beside the clairvoyant bound.

    python docs/strength/cabin_deals.py --deals 2000 --workers 2 > docs/strength/cabin-2000.json

Deal N is ``CabinState.new(1, seed=N)`` (C7). For each deal: the solver's lowest
possible squid score knowing every card (the bound), and the score of ``random``,
``greedy`` and ``expert`` playing it from the player's seat. The gap between a
fair bot and the bound is the headline figure.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from decklab.bots import make_agent
from decklab.games.cabin.solver import solve
from decklab.games.cabin.state import CabinState

AGENTS = ("random", "greedy", "expert")


def one_deal(deal: int) -> dict[str, object]:
    """Every agent's squid score on one deal, and the clairvoyant bound."""
    out: dict[str, object] = {"deal": deal}
    solution = solve(CabinState.new(1, seed=deal))
    out["clairvoyant"] = solution.score
    out["exact"] = getattr(solution, "exact", True)
    for spec in AGENTS:
        state = CabinState.new(1, seed=deal)
        agent = make_agent(f"{spec}:seed={deal}")
        while not state.is_terminal():
            state.apply(0, agent.choose(state, 0))
        out[spec] = state.scores()[0]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    deals = range(args.first, args.first + args.deals)
    rows: list[dict[str, object]] = []
    with (
        Progress(console=Console(stderr=True)) as progress,
        ProcessPoolExecutor(args.workers) as pool,
    ):
        task = progress.add_task("deals", total=len(deals))
        for row in pool.map(one_deal, deals, chunksize=4):
            rows.append(row)
            progress.advance(task)
    summary = {}
    for name in ("clairvoyant", *AGENTS):
        scores = [float(r[name]) for r in rows]  # type: ignore[arg-type]
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
        summary[name] = {
            "mean": mean,
            "ci95": [mean - half, mean + half],
            "perfect_share": sum(s == 0 for s in scores) / len(scores),
        }
    table = Table(title=f"The Cabin, deals {deals.start}–{deals.stop - 1}")
    for col in ("player", "mean squid", "95% interval", "perfect", "gap to bound"):
        table.add_column(col, justify="right")
    bound = summary["clairvoyant"]["mean"]
    for name, s in summary.items():
        lo, hi = s["ci95"]
        table.add_row(
            name,
            f"{s['mean']:.2f}",
            f"{lo:.2f}–{hi:.2f}",
            f"{s['perfect_share']:.1%}",
            "—" if name == "clairvoyant" else f"{s['mean'] - bound:+.2f}",
        )
    Console(stderr=True).print(table)
    json.dump(
        {
            "deals": [deals.start, deals.stop - 1],
            "summary": summary,
            "inexact": sum(not r["exact"] for r in rows),
            "rows": rows,
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
