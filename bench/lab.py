"""The lab's runner: throughput, CPU per game, scaling, memory and Ray's overhead.

    python bench/lab.py [--games 20000] [--greedy-games 400] [--memory 10000,100000]
                        [--no-ray] [--skip-memory] [--skip-greedy] [--json]

Every measurement runs in a fresh Python process (``--one``), so that its CPU
time (its own plus its worker processes', from ``getrusage``, start-up
included) and its peak memory are its alone. What is reported:

- *random*: Corporation, 4 seats, random agents, ``--games`` games written to
  Parquet with score traces: games/s, CPU-seconds per game with 1 and 2
  workers, and the ratio (target: 2 workers within 10% of 1 worker's CPU per
  game), against the *peer* that the runner replaced: one task per deal and
  agents rebuilt for every game (the arena before), on 2 workers, in the same
  run. The 10⁶-game time is extrapolated from the measured rate.
- *greedy*: ``--greedy-games`` games of every game, greedy at every seat, with
  1 and 2 workers; the time of a 2,000-game cell is extrapolated from the rate.
- *memory*: peak RSS of a 1-worker simulation of 10⁴ and 10⁵ random games
  (target: flat in the number of games).
- *ray*: the random run on a local Ray with 2 CPUs against 2 local worker
  processes (start-up of Ray shown apart). Ray's workers are not children of
  the measuring process, so its "CPU" column counts the driver only; its
  in-batch CPU (measured inside each task) is comparable.

"CPU ms/game" is everything (the process and its workers, start-up included);
"in-batch CPU" is what the batches themselves spent (``time.process_time`` in
the worker), i.e. without interpreter start-up and the driver.

The machine is shared: absolute numbers are noisy; ratios within one run are
what to read.
"""

from __future__ import annotations

import argparse
import json
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


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def one(config: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement in this process and return its figures."""
    from decklab.lab.runner import Backend, shutdown_pools
    from decklab.lab.simulate import simulate

    kind = config["kind"]
    games = int(config["games"])
    cpu0, wall0 = _cpu(), time.perf_counter()
    extra: dict[str, Any] = {}
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
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "games_per_second": games / wall,
        "cpu_per_game_ms": 1000 * cpu / games,
        "peak_rss_mib": rss,
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


def _run(config: dict[str, Any], timeout: float = 900) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--one", json.dumps(config)],
        check=True,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--greedy-games", type=int, default=400)
    parser.add_argument("--memory", default="10000,100000")
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--skip-greedy", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(json.loads(args.one))))
        return
    console = Console(stderr=args.json)
    results: dict[str, Any] = {"command": " ".join(sys.argv)}

    random_cfg = {"kind": "sim", "game": "corporation", "spec": "random", "games": args.games}
    rows = [
        _run({**random_cfg, "workers": 1}),
        _run({**random_cfg, "workers": 2}),
        _run({**random_cfg, "kind": "peer", "workers": 2}),
    ]
    if not args.no_ray:
        rows.append(_run({**random_cfg, "ray": "local"}))
    results["random"] = rows
    one_w, two_w = rows[0], rows[1]
    results["random_summary"] = {
        "cpu_ratio_2_over_1": two_w["cpu_per_game_ms"] / one_w["cpu_per_game_ms"],
        "speedup_2_over_1": two_w["games_per_second"] / one_w["games_per_second"],
        "peer_cpu_ratio": rows[2]["cpu_per_game_ms"] / two_w["cpu_per_game_ms"],
        "million_games_minutes_2_workers": 1e6 / two_w["games_per_second"] / 60,
    }
    if not args.no_ray:
        results["random_summary"]["ray_wall_over_local_2"] = (
            rows[3]["wall_seconds"] / two_w["wall_seconds"]
        )
    table = Table(title=f"Corporation ×4, random agents, {args.games} games (Parquet + traces)")
    for col in ("run", "games/s", "CPU ms/game", "in-batch CPU ms/game", "wall s", "peak MiB"):
        table.add_column(col, justify="right")
    for r in rows:
        label = (
            "per-deal tasks, fresh agents (peer), 2 workers"
            if r["kind"] == "peer"
            else ("ray local (2 CPUs)" if r.get("ray") else f"runner, {r['workers']} worker(s)")
        )
        table.add_row(
            label,
            f"{r['games_per_second']:.0f}",
            f"{r['cpu_per_game_ms']:.3f}",
            f"{r['batch_cpu_per_game_ms']:.3f}" if "batch_cpu_per_game_ms" in r else "—",
            f"{r['wall_seconds']:.1f}",
            f"{r['peak_rss_mib']:.0f}",
        )
    console.print(table)
    s = results["random_summary"]
    console.print(
        f"2 workers / 1 worker: CPU per game ×{s['cpu_ratio_2_over_1']:.3f}, "
        f"speed ×{s['speedup_2_over_1']:.2f}; the peer spends ×{s['peer_cpu_ratio']:.2f} "
        f"the runner's CPU per game; 10⁶ games on 2 workers ≈ "
        f"{s['million_games_minutes_2_workers']:.1f} min"
        + (
            f"; Ray wall / 2 local workers ×{s['ray_wall_over_local_2']:.2f} "
            f"(Ray start-up {rows[3].get('ray_start_seconds', 0):.1f} s apart)"
            if not args.no_ray
            else ""
        ),
        highlight=False,
    )

    greedy: list[dict[str, Any]] = []
    table = Table(title=f"greedy at every seat, {args.greedy_games} games per cell")
    for col in ("game", "workers", "games/s", "CPU ms/game", "2,000 games (s, extrapolated)"):
        table.add_column(col, justify="right")
    for game in () if args.skip_greedy else GAMES:
        for workers in (1, 2):
            r = _run(
                {
                    "kind": "sim",
                    "game": game,
                    "spec": "greedy",
                    "games": args.greedy_games,
                    "workers": workers,
                }
            )
            greedy.append(r)
            table.add_row(
                game,
                str(workers),
                f"{r['games_per_second']:.0f}",
                f"{r['cpu_per_game_ms']:.2f}",
                f"{2000 / r['games_per_second']:.1f}",
            )
    results["greedy"] = greedy
    if greedy:
        console.print(table)

    if not args.skip_memory:
        memory = []
        table = Table(title="memory of a 1-worker simulation (random, Corporation ×4)")
        for col in ("games", "peak RSS MiB", "wall s"):
            table.add_column(col, justify="right")
        for n in (int(x) for x in args.memory.split(",")):
            r = _run({**random_cfg, "games": n, "workers": 1}, timeout=1800)
            memory.append(r)
            table.add_row(str(n), f"{r['peak_rss_mib']:.0f}", f"{r['wall_seconds']:.1f}")
        results["memory"] = memory
        console.print(table)
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
