"""The lab's runner against issue 12's speed targets, and against the design it replaced.

    python bench/lab.py [--games 100000] [--million] [--greedy-games 2000]
                        [--memory 10000,100000] [--compare-games 20000]
                        [--no-ray] [--no-peer] [--skip-memory] [--skip-greedy] [--json]

Every measurement runs in a fresh Python process (``--one``), so that its CPU
time (its own plus its worker processes', from ``getrusage``, interpreter
start-up included) and its peak memory are its alone. The targets, as the issue
states them for this 2-core machine, and what is measured for each:

(a) *10⁶ random-agent Corporation games (4 players) in under 3 minutes.* A
    ``simulate`` run (Parquet part files, score traces, events) of ``--games``
    games with 2 workers; its wall time scaled linearly to 10⁶ games (start-up
    scaled with it, so the figure errs high). ``--million`` plays the 10⁶ games
    instead and reports their time as measured. The machine is shared, so the
    wall time measures the load as much as the lab: the table also gives what
    the run's CPU time would take on 2 idle cores (CPU-seconds ÷ 2), and the
    load average during the run.
(b) *2 workers spend within 10% of 1 worker's CPU-seconds per game*: the same
    simulation with 1 worker (in-process) and with 2; whole-process CPU (start-up
    of the workers included) and in-batch CPU (what the batches themselves
    spent, ``time.process_time`` in the worker).
(c) *memory flat in the number of games*: peak RSS of a 1-worker simulation of
    each ``--memory`` size; met when the largest is within ×1.15 of the
    smallest.
(d) *a 2,000-game greedy cell of every game in under 30 s*: ``--greedy-games``
    games of every game, greedy at every seat, 2 workers, wall time scaled to
    2,000 games (measured as is at the default 2,000); and, as for (a), what
    the cell's CPU time would take on 2 idle cores.

Comparisons (no target): the arena before the runner (one task per deal,
every agent rebuilt for every game) on 2 workers, and the runner on a local Ray
with 2 CPUs (Ray's start-up shown apart; Ray's workers are not children of the
measuring process, so only its in-batch CPU is comparable), both on
``--compare-games`` games against the runner's 2 workers on as many.

The build (compiled or pure) is printed: measure the compiled one (``make build``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

GAMES = ("facade", "lonely-face", "cabin", "corporation", "notorious")
TABLE = {"facade": 2, "lonely-face": 2, "cabin": 1, "corporation": 4, "notorious": 4}
MILLION = 1_000_000
TARGET_MILLION_S = 180.0
TARGET_CPU_RATIO = 1.10
TARGET_MEMORY_RATIO = 1.15
TARGET_GREEDY_S = 30.0
GREEDY_CELL = 2000


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def one(config: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement in this process and return its figures."""
    import decklab
    from decklab.lab.runner import Backend, shutdown_pools
    from decklab.lab.simulate import simulate

    kind = config["kind"]
    games = int(config["games"])
    load0 = os.getloadavg()[0]
    cpu0, wall0 = _cpu(), time.perf_counter()
    extra: dict[str, Any] = {"build": decklab.BUILD}
    if kind == "peer":
        _peer(config["game"], config["spec"], TABLE[config["game"]], games, config["workers"])
    else:
        backend = Backend(workers=config.get("workers", 1), ray=config.get("ray"))
        if backend.ray is not None:
            import ray

            start = time.perf_counter()
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
            extra["ray_start_seconds"] = time.perf_counter() - start
            cpu0, wall0 = _cpu(), time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            summary = simulate(
                config["game"],
                [config["spec"]],
                games,
                Path(tmp) / "run",
                players=TABLE[config["game"]],
                backend=backend,
                seed=1,
            )
        games = summary.games
        extra["batch_cpu_per_game_ms"] = 1000 * summary.cpu_seconds / games
        shutdown_pools()  # reap the kept workers, so that their CPU time is counted
        if backend.ray is not None:
            import ray

            ray.shutdown()
    wall = time.perf_counter() - wall0
    cpu = _cpu() - cpu0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB → MiB
    return {
        **config,
        "games": games,
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "games_per_second": games / wall,
        "cpu_per_game_ms": 1000 * cpu / games,
        "peak_rss_mib": rss,
        "load_average": (load0 + os.getloadavg()[0]) / 2,
        **extra,
    }


def _peer(game: str, spec: str, players: int, games: int, workers: int) -> None:
    """The arena before the runner: one task per deal, every agent rebuilt per game."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from decklab.lab.arena import DealJob, play_deal
    from decklab.lab.runner import derive_seed

    lineups = ((0,) * players,)
    jobs = [
        DealJob(game, players, {}, (spec,), lineups, d, derive_seed(1, d)) for d in range(games)
    ]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        for _ in pool.map(play_deal, jobs):
            pass


def _run(config: dict[str, Any], timeout: float = 1800) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--one", json.dumps(config)],
        check=True,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _met(ok: bool) -> str:
    return "[green]met[/green]" if ok else "[red]not met[/red]"


def _label(r: dict[str, Any]) -> str:
    if r["kind"] == "peer":
        return f"per-deal tasks, fresh agents (the old arena), {r['workers']} workers"
    if r.get("ray"):
        return "runner on a local Ray (2 CPUs)"
    return f"runner, {r['workers']} worker{'s' if r['workers'] > 1 else ''}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="random games for (a), (b)")
    parser.add_argument("--million", action="store_true", help="(a): play the 10⁶ games")
    parser.add_argument("--greedy-games", type=int, default=GREEDY_CELL)
    parser.add_argument("--memory", default="10000,100000")
    parser.add_argument("--compare-games", type=int, default=20_000)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--skip-greedy", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(json.loads(args.one))))
        return
    console = Console(stderr=args.json, width=max(130, Console().width))
    results: dict[str, Any] = {"command": " ".join(sys.argv), "cpus": os.cpu_count()}
    random_cfg = {"kind": "sim", "game": "corporation", "spec": "random"}
    n_a = MILLION if args.million else args.games

    # (b) and (a): 1 worker and 2 workers on the same games
    one_w = _run({**random_cfg, "games": args.games, "workers": 1})
    two_w = _run({**random_cfg, "games": n_a, "workers": 2}, timeout=3600)
    if n_a != args.games:
        two_b = _run({**random_cfg, "games": args.games, "workers": 2})
    else:
        two_b = two_w
    results["random"] = [one_w, two_w] + ([two_b] if two_b is not two_w else [])
    build = one_w["build"]
    results["build"] = build

    table = Table(title=f"Corporation ×4, random agents (Parquet + traces + events), {build} build")
    for col in ("run", "games", "games/s", "CPU ms/game", "in-batch CPU ms/game", "wall s"):
        table.add_column(col, justify="right")
    table.add_column("peak MiB", justify="right")
    table.add_column("load avg", justify="right")
    compare: list[dict[str, Any]] = []
    if not args.no_peer or not args.no_ray:
        base = _run({**random_cfg, "games": args.compare_games, "workers": 2})
        compare.append(base)
        if not args.no_peer:
            compare.append(
                _run({**random_cfg, "games": args.compare_games, "kind": "peer", "workers": 2})
            )
        if not args.no_ray:
            compare.append(_run({**random_cfg, "games": args.compare_games, "ray": "local"}))
    results["compare"] = compare
    for r in [*results["random"], *compare]:
        table.add_row(
            _label(r),
            f"{r['games']:,}",
            f"{r['games_per_second']:,.0f}",
            f"{r['cpu_per_game_ms']:.3f}",
            f"{r['batch_cpu_per_game_ms']:.3f}" if "batch_cpu_per_game_ms" in r else "—",
            f"{r['wall_seconds']:.1f}",
            f"{r['peak_rss_mib']:.0f}",
            f"{r['load_average']:.1f}",
        )
    console.print(table)
    if compare:
        base = compare[0]
        for r in compare[1:]:
            what = "peer" if r["kind"] == "peer" else "ray"
            if what == "peer":
                results["peer_cpu_over_runner"] = r["cpu_per_game_ms"] / base["cpu_per_game_ms"]
            results[f"{what}_wall_over_runner"] = r["wall_seconds"] / base["wall_seconds"]
        if "ray_wall_over_runner" in results:
            ray_row = compare[-1]
            console.print(
                f"Ray local / 2 local workers, {args.compare_games:,} games: wall "
                f"×{results['ray_wall_over_runner']:.2f}, in-batch CPU per game "
                f"×{ray_row['batch_cpu_per_game_ms'] / base['batch_cpu_per_game_ms']:.2f} "
                f"(Ray start-up {ray_row.get('ray_start_seconds', 0):.1f} s apart)",
                highlight=False,
            )
        if "peer_cpu_over_runner" in results:
            console.print(
                f"the old per-deal design spends ×{results['peer_cpu_over_runner']:.2f} the "
                f"runner's CPU per game on 2 workers, wall ×{results['peer_wall_over_runner']:.2f}",
                highlight=False,
            )

    greedy: list[dict[str, Any]] = []
    if not args.skip_greedy:
        gtable = Table(
            title=f"greedy at every seat, {args.greedy_games:,} games per cell, 2 workers"
        )
        for col in ("game", "games/s", "CPU ms/game", f"{GREEDY_CELL:,}-game cell, s", "load avg"):
            gtable.add_column(col, justify="right")
        for game in GAMES:
            r = _run(
                {
                    "kind": "sim",
                    "game": game,
                    "spec": "greedy",
                    "workers": 2,
                    "games": args.greedy_games,
                }
            )
            r["cell_seconds"] = r["wall_seconds"] * GREEDY_CELL / r["games"]
            greedy.append(r)
            gtable.add_row(
                game,
                f"{r['games_per_second']:,.0f}",
                f"{r['cpu_per_game_ms']:.2f}",
                f"{r['cell_seconds']:.1f}",
                f"{r['load_average']:.1f}",
            )
        console.print(gtable)
    results["greedy"] = greedy

    memory: list[dict[str, Any]] = []
    if not args.skip_memory:
        mtable = Table(title="memory of a 1-worker simulation (random, Corporation ×4)")
        for col in ("games", "peak RSS MiB", "wall s"):
            mtable.add_column(col, justify="right")
        for n in sorted(int(x) for x in args.memory.split(",")):
            r = one_w if n == one_w["games"] else _run({**random_cfg, "games": n, "workers": 1})
            memory.append(r)
            mtable.add_row(f"{n:,}", f"{r['peak_rss_mib']:.0f}", f"{r['wall_seconds']:.1f}")
        console.print(mtable)
    results["memory"] = memory

    # ------------------------------------------------------------- the targets
    targets: list[dict[str, Any]] = []
    scale = MILLION / two_w["games"]
    wall_m = two_w["wall_seconds"] * scale
    idle_m = two_w["cpu_seconds"] * scale / 2
    how = "measured" if two_w["games"] == MILLION else f"×{scale:g} from {two_w['games']:,} games"
    targets.append(
        {
            "target": "(a) 10⁶ random Corporation games ×4, 2 workers, < 3 min",
            "measured": f"{wall_m / 60:.1f} min wall ({how}, load {two_w['load_average']:.1f})",
            "met": wall_m < TARGET_MILLION_S,
        }
    )
    targets.append(
        {
            "target": "(a′) the same on 2 idle cores (CPU-seconds ÷ 2)",
            "measured": f"{idle_m / 60:.1f} min ({two_w['cpu_per_game_ms']:.3f} CPU ms/game)",
            "met": idle_m < TARGET_MILLION_S,
        }
    )
    ratio = two_b["cpu_per_game_ms"] / one_w["cpu_per_game_ms"]
    in_batch = two_b["batch_cpu_per_game_ms"] / one_w["batch_cpu_per_game_ms"]
    targets.append(
        {
            "target": "(b) CPU per game, 2 workers ÷ 1 worker ≤ ×1.10",
            "measured": f"×{ratio:.3f} whole-process, ×{in_batch:.3f} in-batch "
            f"({two_b['games']:,} games)",
            "met": ratio <= TARGET_CPU_RATIO,
        }
    )
    if len(memory) >= 2:
        grow = memory[-1]["peak_rss_mib"] / memory[0]["peak_rss_mib"]
        targets.append(
            {
                "target": "(c) memory flat in N (largest ≤ ×1.15 smallest)",
                "measured": ", ".join(
                    f"{m['peak_rss_mib']:.0f} MiB at {m['games']:,}" for m in memory
                )
                + f" (×{grow:.2f})",
                "met": grow <= TARGET_MEMORY_RATIO,
            }
        )
    if greedy:
        worst = max(greedy, key=lambda r: r["cell_seconds"])
        targets.append(
            {
                "target": "(d) 2,000-game greedy cell of every game < 30 s",
                "measured": ", ".join(f"{r['game']} {r['cell_seconds']:.1f} s" for r in greedy)
                + ("" if greedy[0]["games"] == GREEDY_CELL else " (scaled)"),
                "met": worst["cell_seconds"] < TARGET_GREEDY_S,
            }
        )
        idle = [(r["game"], r["cpu_seconds"] * GREEDY_CELL / r["games"] / 2) for r in greedy]
        targets.append(
            {
                "target": "(d′) the same on 2 idle cores (CPU-seconds ÷ 2)",
                "measured": ", ".join(f"{g} {t:.1f} s" for g, t in idle),
                "met": max(t for _, t in idle) < TARGET_GREEDY_S,
            }
        )
    results["targets"] = targets
    ttable = Table(
        title=f"issue 12's targets ({build} build, {os.cpu_count()} CPUs, shared machine)"
    )
    ttable.add_column("target")
    ttable.add_column("measured")
    ttable.add_column("")
    for t in targets:
        ttable.add_row(t["target"], t["measured"], _met(t["met"]))
    console.print(ttable)
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
