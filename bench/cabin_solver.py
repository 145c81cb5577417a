"""The Cabin's clairvoyant solver on seeded deals: speed, mean score, perfect share.

    python bench/cabin_solver.py [--deals 200] [--first 0] [--node-limit 300000] [--json]
                                 [--no-pure] [--chunk 10]

Each deal ``first … first+deals-1`` is dealt by its number (C7) and solved knowing
every hidden card: the lowest squid score the deal allows, the bound a fair player
is measured against. A deal whose search passes ``--node-limit`` nodes is reported
as inexact (its best line found is counted, an upper bound); the count says how
often that happens. One core, no parallelism; deals per CPU second is the figure to
compare on a busy machine.

On the compiled build the same deals are also solved on the pure-Python build, in
a peer process that takes its turn after every ``--chunk`` deals (``bench/peer.py``):
the ratio of CPU seconds on the same deals is the compiled build's speed-up, and
the two must find the same scores.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from decklab.games.cabin.solver import solve
from decklab.games.cabin.state import CabinState
from peer import SERVE_FLAG, serve, start_peer  # bench/peer.py (the script's own folder)


def _serve_pure() -> int:
    def handle(request: dict[str, Any]) -> dict[str, Any]:
        cpu = time.process_time()
        scores = [
            solve(CabinState.new(seed=d), node_limit=request["node_limit"]).score
            for d in range(request["first"], request["stop"])
        ]
        return {"cpu": time.process_time() - cpu, "scores": scores}

    return serve(handle)


def main() -> None:
    if sys.argv[1:] == [SERVE_FLAG]:
        raise SystemExit(_serve_pure())
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="how many deals (default 200)")
    parser.add_argument("--first", type=int, default=0, help="the first deal number")
    parser.add_argument(
        "--node-limit", type=int, default=300_000, help="search nodes per deal before giving up"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument(
        "--no-pure", action="store_true", help="do not solve the deals on the pure build too"
    )
    parser.add_argument("--chunk", type=int, default=10, help="deals between the peer's turns")
    args = parser.parse_args()
    pure = start_peer(__file__, not args.no_pure)
    pure_cpu = 0.0
    own_cpu = 0.0
    chunk_start = args.first
    chunk_cpu = time.process_time()
    mismatched: list[int] = []

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
            end = deal + 1
            if pure is not None and (
                end - chunk_start == args.chunk or end == args.first + args.deals
            ):
                own_cpu += time.process_time() - chunk_cpu
                request = {"first": chunk_start, "stop": end, "node_limit": args.node_limit}
                got = pure.ask(request)
                pure_cpu += got["cpu"]
                mine = scores[chunk_start - args.first :]
                mismatched += [
                    d
                    for d, a, b in zip(range(chunk_start, end), mine, got["scores"], strict=True)
                    if a != b
                ]
                chunk_start = end
                chunk_cpu = time.process_time()
    if pure is not None:
        pure.close()
    elapsed = time.perf_counter() - start if pure is None else sum(times)  # not the peer's turns
    cpu = own_cpu if pure is not None else time.process_time() - cpu_start
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
    if pure is not None:
        summary["pure_deals_per_cpu_second"] = n / pure_cpu
        summary["vs_pure"] = pure_cpu / cpu
        summary["pure_score_mismatches"] = mismatched
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
    if pure is not None:
        table.add_row(
            "pure build: deals per CPU second", f"{summary['pure_deals_per_cpu_second']:.2f}"
        )
        table.add_row("compiled over pure (same deals, CPU)", f"{summary['vs_pure']:.2f}×")
        table.add_row("deals scored differently by the two", f"{len(mismatched)}")
    Console().print(table)


if __name__ == "__main__":
    main()
