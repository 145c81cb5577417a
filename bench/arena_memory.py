"""The arena's memory against the number of games: flat, as issue 12 asks.

    python bench/arena_memory.py [--games 10000,100000] [--no-peer] [--json]

Each measurement runs ``run_arena`` (random agents, Corporation, 4 players,
two agent specs so that the ratings and their bootstrap are fitted, 1 worker,
in-process) in a fresh Python process and reports that process's peak RSS,
and its growth over the RSS after the imports (what the arena itself added).
The peer, measured in the same run, is the arena keeping every game's result
(``keep_results=True``), which is what it did for every run before it kept
running aggregates instead: its growth is linear in the number of games.
Flat means the largest size's peak is within ×1.15 of the smallest's.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

SPECS = ["random:seed=1", "random"]
TARGET_MEMORY_RATIO = 1.15


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB → MiB


def one(games: int, keep: bool) -> dict[str, Any]:
    """One arena in this process: its figures."""
    import decklab
    from decklab.lab.arena import run_arena

    base = _rss_mib()
    start = time.perf_counter()
    report = run_arena(
        "corporation", SPECS, games, seed=1, players=4, progress=False, keep_results=keep
    )
    wall = time.perf_counter() - start
    peak = _rss_mib()
    return {
        "games": report.games,
        "keep_results": keep,
        "peak_rss_mib": peak,
        "growth_mib": peak - base,
        "wall_seconds": wall,
        "build": decklab.BUILD,
    }


def _measure(games: int, keep: bool) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--one", str(games)] + (["--keep"] if keep else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="10000,100000")
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--keep", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one(args.one, args.keep)))
        return
    sizes = sorted(int(x) for x in args.games.split(","))
    modes = [False] if args.no_peer else [False, True]
    rows = [_measure(n, keep) for keep in modes for n in sizes]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    table = Table(title=f"arena memory: random, Corporation ×4, 1 worker ({rows[0]['build']})")
    for col in ("games", "kept games", "peak RSS MiB", "arena's growth MiB", "wall s"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            f"{r['games']:,}",
            "yes" if r["keep_results"] else "no",
            f"{r['peak_rss_mib']:.1f}",
            f"{r['growth_mib']:.1f}",
            f"{r['wall_seconds']:.1f}",
        )
    console = Console()
    console.print(table)
    streamed = [r for r in rows if not r["keep_results"]]
    if len(streamed) >= 2:
        ratio = streamed[-1]["peak_rss_mib"] / streamed[0]["peak_rss_mib"]
        met = "met" if ratio <= TARGET_MEMORY_RATIO else "NOT met"
        console.print(
            f"peak RSS ×{ratio:.3f} from {streamed[0]['games']:,} to {streamed[-1]['games']:,} "
            f"games (target ≤ ×{TARGET_MEMORY_RATIO}): {met}"
        )


if __name__ == "__main__":
    main()
