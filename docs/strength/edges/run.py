"""One `expert` against greedy in every other seat, at one table size (issue 20).

Why not `decklab arena --json`: the per-seat target needs the expert's rate *in
each seat*, and the CLI's JSON has only per-seat rates of all agents mixed.
This calls the same `run_arena` with `keep_results=True` and writes the arena's
own `to_json(include_games=True)`, plus the measured wall time, so
`table.py` (or a later `docs/strength/build.py`) can read it back.

    python docs/strength/edges/run.py GAME SEATS GAMES SEED OUT.json
"""

from __future__ import annotations

import json
import sys
import time

from decklab.lab.arena import run_arena


def main() -> None:
    game, seats, games, seed, out = sys.argv[1:6]
    n = int(seats)
    specs = ["expert"] + ["greedy"] * (n - 1)
    start = time.perf_counter()
    report = run_arena(
        game, specs, int(games), seed=int(seed), players=n, progress=False, keep_results=True
    )
    wall = time.perf_counter() - start
    data = report.to_dict(include_games=True)
    data["wall_seconds"] = wall
    with open(out, "w") as f:
        json.dump(data, f, indent=1)
    print(f"{game} {n}: {data['per_agent'][0]['win_rate']:.3f} over {data['games']} in {wall:.0f}s")


if __name__ == "__main__":
    main()
