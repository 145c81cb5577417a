"""The Cabin's clairvoyant solver on seeded deals: speed, mean score, perfect share.

    python bench/cabin_solver.py [--deals 200] [--first 0] [--node-limit 300000] [--json]

Each deal ``first … first+deals-1`` is dealt by its number (C7) and solved knowing
every hidden card: the lowest squid score the deal allows, the bound a fair player
is measured against. A deal whose search passes ``--node-limit`` nodes is reported
as inexact (its best line found is counted, an upper bound); the count says how
often that happens. One core, no parallelism; deals per CPU second is the figure to
compare on a busy machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from decklab.games.cabin.solver import solve
from decklab.games.cabin.state import CabinState


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="how many deals (default 200)")
    parser.add_argument("--first", type=int, default=0, help="the first deal number")
    parser.add_argument(
        "--node-limit", type=int, default=300_000, help="search nodes per deal before giving up"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args()

    console = Console(stderr=True)
    scores: list[int] = []
    nodes: list[int] = []
    times: list[float] = []
    inexact: list[int] = []
    columns = (
        TextColumn("[bold]solving"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[info]}"),
    )
    start = time.perf_counter()
    cpu_start = time.process_time()
    with Progress(*columns, console=console, transient=args.json) as progress:
        task = progress.add_task("deals", total=args.deals, info="")
        for deal in range(args.first, args.first + args.deals):
            t0 = time.perf_counter()
            sol = solve(CabinState.new(seed=deal), node_limit=args.node_limit)
            times.append(time.perf_counter() - t0)
            scores.append(sol.score)
            nodes.append(sol.nodes)
            if not sol.exact:
                inexact.append(deal)
            mean = statistics.fmean(scores)
            progress.update(task, advance=1, info=f"mean {mean:.2f}")
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    n = len(scores)
    summary = {
        "deals": n,
        "first": args.first,
        "deals_per_second": n / elapsed,
        "deals_per_cpu_second": n / cpu,
        "mean_squid": statistics.fmean(scores),
        "perfect_share": sum(s == 0 for s in scores) / n,
        "inexact": len(inexact),
        "inexact_deals": inexact,
        "median_seconds": statistics.median(times),
        "max_seconds": max(times),
        "mean_nodes": statistics.fmean(nodes),
        "max_nodes": max(nodes),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    table = Table(title=f"Cabin clairvoyant solver, deals {args.first}–{args.first + n - 1}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("deals per second (wall clock)", f"{summary['deals_per_second']:.2f}")
    table.add_row("deals per CPU second", f"{summary['deals_per_cpu_second']:.2f}")
    table.add_row("mean squid points", f"{summary['mean_squid']:.3f}")
    table.add_row("perfect games", f"{summary['perfect_share']:.1%}")
    table.add_row("inexact (node limit hit)", f"{len(inexact)}")
    table.add_row(
        "median / max seconds a deal",
        f"{summary['median_seconds']:.3f} / {summary['max_seconds']:.2f}",
    )
    table.add_row("mean / max nodes", f"{summary['mean_nodes']:.0f} / {summary['max_nodes']}")
    Console().print(table)


if __name__ == "__main__":
    main()
