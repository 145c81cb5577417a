"""The Cabin's clairvoyant bound on the lab's own deals, beside the bots that played them.

    python docs/findings/cabin_bound.py SWEEP [SWEEP ...] --deals N --workers 2 --out FILE.json

Each SWEEP is a ``decklab sweep cabin`` folder (one agent, every cell the same seed,
so every cell plays the same deals: ruling C7, the deal is its seed). For each cell's
variant (``stacks``, ``beach_dump``) and each of the first N deals of the first
sweep, the exact solver (``games/cabin/solver.py``) finds the fewest squid points the
deal allows knowing every hidden card: the *clairvoyant bound*, what no player can
beat. With the beach dump (C6) the search is far bigger and is cut at a node limit, on
fewer deals (``--dump-deals``): the figure is then the best clairvoyant line found,
capped by the same deal's exact value without the dump (the dump is optional, so any
line without it is a line with it): the true bound is at most that, and at least the
solver's proven lower bound, which is reported beside it. Beside it, each sweep's agent's score on the same deal, so every gap is paired
per deal (normal 95% interval of the mean difference), and the share of perfect games
with Wilson intervals. The bound is solved once per (variant, deal) and cached in
the output file, so an interrupted run resumes.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from rich.progress import Progress

from decklab.games.cabin.solver import solve
from decklab.games.cabin.state import CabinState
from decklab.lab.stats import wilson

NODE_LIMIT = 2_000_000
"""Nodes per deal before the solver gives up (its best line is then an upper bound)."""
DUMP_NODE_LIMIT = 20_000
"""The same with the beach dump, where exact solves take minutes a deal."""


def _cells(sweep: Path) -> dict[str, tuple[dict[str, Any], dict[int, float]]]:
    """Cell label → (options, deal seed → the agent's squid points on it)."""
    out: dict[str, tuple[dict[str, Any], dict[int, float]]] = {}
    for cell in sorted(p for p in sweep.iterdir() if p.name.startswith("cell-")):
        rows = sorted(cell.glob("rows/*.parquet"))
        if not rows:
            continue
        table = pq.read_table(rows).to_pydict()
        options = json.loads(table["options"][0])
        label = f"stacks={options['stacks']}, beach_dump={str(options['beach_dump']).lower()}"
        scores = {
            int(s): float(sc[0]) for s, sc in zip(table["seed"], table["scores"], strict=True)
        }
        deals = {int(s): d for s, d in zip(table["seed"], table["deal"], strict=True)}
        ordered = dict(sorted(scores.items(), key=lambda kv: deals[kv[0]]))
        out[label] = (options, ordered)
    return out


def _solve(job: tuple[str, dict[str, Any], int]) -> tuple[str, int, list[Any]]:
    label, options, seed = job
    cpu = time.process_time()
    limit = DUMP_NODE_LIMIT if options["beach_dump"] else NODE_LIMIT
    sol = solve(CabinState.new(1, options, seed=seed), node_limit=limit)
    return label, seed, [sol.score, sol.exact, sol.lower, round(time.process_time() - cpu, 3)]


def _value(solved: dict[str, list[Any]], plain: dict[str, list[Any]], seed: int) -> float:
    """The deal's bound; with the dump, capped by its exact value without (the dump is optional)."""
    v = float(solved[str(seed)][0])
    if str(seed) in plain:
        v = min(v, float(plain[str(seed)][0]))
    return v


def _mean(xs: list[float]) -> dict[str, float]:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return {"mean": m, "low": m - half, "high": m + half, "n": len(xs)}


def _perfect(xs: list[float]) -> dict[str, float]:
    k = sum(1 for x in xs if x == 0)
    lo, hi = wilson(k, len(xs))
    return {"rate": k / len(xs), "low": lo, "high": hi, "n": len(xs), "count": k}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sweeps", nargs="+", type=Path)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--dump-deals", type=int, default=100, help="deals with the beach dump")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    sweeps = {str(s): _cells(s) for s in args.sweeps}
    first = next(iter(sweeps.values()))
    cache: dict[str, Any] = json.loads(args.out.read_text()) if args.out.exists() else {}
    bounds: dict[str, dict[str, list[Any]]] = cache.get("bounds", {})
    jobs = []

    def wanted(label: str) -> int:
        return args.dump_deals if first[label][0]["beach_dump"] else args.deals

    for label, (options, scores) in first.items():
        for seed in list(scores)[: wanted(label)]:
            if str(seed) not in bounds.get(label, {}):
                jobs.append((label, options, seed))
    with Progress() as progress, ProcessPoolExecutor(args.workers) as pool:
        task = progress.add_task("solving deals", total=len(jobs))
        for done, (label, seed, entry) in enumerate(pool.map(_solve, jobs, chunksize=2), 1):
            bounds.setdefault(label, {})[str(seed)] = entry
            progress.advance(task)
            if done % 50 == 0:
                args.out.write_text(json.dumps({"bounds": bounds}))
    summary: dict[str, Any] = {}
    for label in first:
        options = first[label][0]
        solved = bounds[label]
        seeds = [s for s in first[label][1] if str(s) in solved][: wanted(label)]
        plain = bounds.get(f"stacks={options['stacks']}, beach_dump=false", {})
        if not options["beach_dump"]:
            plain = {}
        bound = [_value(solved, plain, s) for s in seeds]
        cell: dict[str, Any] = {
            "deals": len(seeds),
            "inexact": sum(1 for s in seeds if not solved[str(s)][1]),
            "solver_cpu_s": sum(solved[str(s)][3] for s in seeds),
            "bound": _mean(bound),
            "bound_lower": _mean([float(solved[str(s)][2]) for s in seeds]),
            "bound_perfect": _perfect(bound),
            "agents": {},
        }
        for name, cells in sweeps.items():
            if label not in cells:
                continue
            scores = cells[label][1]
            paired = [s for s in seeds if s in scores]
            if not paired:
                continue
            played = [scores[s] for s in paired]
            gap = [scores[s] - _value(solved, plain, s) for s in paired]
            cell["agents"][Path(name).name] = {
                "score": _mean(played),
                "perfect": _perfect(played),
                "gap_to_bound": _mean(gap),
            }
        summary[label] = cell
    # paired differences between variants, per deal: 7 stacks against 8, the dump against none
    pairs = {
        "7 stacks instead of 8, without the dump": (
            "stacks=7, beach_dump=false",
            "stacks=8, beach_dump=false",
        ),
        "7 stacks instead of 8, with the dump": (
            "stacks=7, beach_dump=true",
            "stacks=8, beach_dump=true",
        ),
        "the dump, 8 stacks": ("stacks=8, beach_dump=true", "stacks=8, beach_dump=false"),
        "the dump, 7 stacks": ("stacks=7, beach_dump=true", "stacks=7, beach_dump=false"),
    }
    paired: dict[str, Any] = {}
    for change, (a, b) in pairs.items():
        row: dict[str, Any] = {}
        if a in bounds and b in bounds:
            common = [s for s in bounds[a] if s in bounds[b]]
            if common:
                pa = bounds.get(f"stacks={a[7]}, beach_dump=false", {}) if "true" in a else {}
                pb = bounds.get(f"stacks={b[7]}, beach_dump=false", {}) if "true" in b else {}
                row["clairvoyant bound"] = _mean(
                    [_value(bounds[a], pa, int(s)) - _value(bounds[b], pb, int(s)) for s in common]
                )
        for name, cells in sweeps.items():
            if a in cells and b in cells:
                sa, sb = cells[a][1], cells[b][1]
                common_deals = [s for s in sa if s in sb]
                row[Path(name).name] = _mean([sa[s] - sb[s] for s in common_deals])
        paired[change] = row
    args.out.write_text(
        json.dumps({"bounds": bounds, "summary": summary, "paired": paired}, indent=1)
    )
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
