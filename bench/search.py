"""ISMCTS speed: search iterations (simulations) per CPU second, per game.

    python bench/search.py [--seconds 2] [--games corporation,facade] [--json] [--no-pure]

Each game is searched from two positions, its first decision and one a third
of the way through a random game (where rollouts are shorter), by
``ismcts:time=SECONDS`` with random rollouts, and with greedy rollouts where
the game ships a rule-based player. An iteration is one determinization, one
descent of the tree, one rollout to the end and one backup. The last column is
the configuration of the strength report (``docs/strength.md``): greedy
rollouts cut off after 8 moves and judged by the game's estimate, the other
seats modelled by their greedy move, the game's top 4 moves halved at the root.
Games that do not import (still being written) are listed as skipped.

On the compiled build every figure is also measured on the pure-Python build,
in a peer process that searches the same positions in turn with this one
(``bench/peer.py``); the second table gives the compiled build's speed over
the pure one's.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from decklab.bots import make_agent
from decklab.bots.greedy import game_greedy
from decklab.bots.ismcts import GUIDED
from decklab.bots.spec import format_spec
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import GameState
from peer import SERVE_FLAG, serve, start_peer  # bench/peer.py (the script's own folder)

GUIDED_SPEC = format_spec("ismcts", GUIDED)
"""The strength report's search, as in ``docs/strength/run.sh``."""


def position(cls: type[GameState], fraction: float, seed: int) -> tuple[GameState, int]:
    """A state ``fraction`` of the way through a random game, at a real decision."""
    rng = random.Random(seed)
    probe = cls.new(seed=seed)
    length = 0
    while not probe.is_terminal():
        seat = probe.to_act()[0]
        probe.apply(seat, rng.choice(probe.legal_actions(seat)))
        length += 1
    state = cls.new(seed=seed)
    steps = 0
    while True:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if steps >= fraction * length and len(legal) >= 2:
            return state, seat
        state.apply(seat, rng.choice(legal))
        steps += 1
        if state.is_terminal():  # no real decision left: start of the game instead
            return position(cls, 0.0, seed)


def search_slice(state: GameState, seat: int, spec: str, seconds: float) -> tuple[int, float]:
    """Iterations and CPU seconds of one search of ``seconds`` (wall clock) from ``state``.

    Per CPU second, not per wall-clock second: on a machine shared with other work a
    process's wall time depends on everyone's load, its CPU time much less.
    """
    agent = make_agent(f"{spec},time={seconds},seed=0")
    start = time.process_time()
    hint = agent.hint(state, seat)
    elapsed = time.process_time() - start
    return sum(hint.visits.values()), elapsed


_POSITIONS: dict[tuple[str, float], tuple[GameState, int]] = {}


def measure(name: str, fraction: float, spec: str, seconds: float) -> tuple[int, float]:
    """One slice of searching game ``name`` a ``fraction`` of the way in (positions cached)."""
    key = (name, fraction)
    if key not in _POSITIONS:
        _POSITIONS[key] = position(get_game(name), fraction, seed=1)
    state, seat = _POSITIONS[key]
    return search_slice(state, seat, spec, seconds)


def _serve_pure() -> int:
    def handle(request: dict[str, Any]) -> dict[str, Any]:
        iters, elapsed = measure(
            request["game"], request["fraction"], request["spec"], request["seconds"]
        )
        return {"iters": iters, "elapsed": elapsed}

    return serve(handle)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="search time per position")
    parser.add_argument("--games", default=",".join(game_names()), help="comma-separated names")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--rounds", type=int, default=2, help="interleaved slices per figure (with the pure peer)"
    )
    parser.add_argument(
        "--no-pure", action="store_true", help="do not measure the pure-Python build beside it"
    )
    argv = sys.argv[1:] if argv is None else argv
    if argv == [SERVE_FLAG]:
        return _serve_pure()
    args = parser.parse_args(argv)

    pure = start_peer(__file__, not args.no_pure)
    slice_s = args.seconds / args.rounds

    def rate(name: str, fraction: float, spec: str) -> tuple[float, float | None]:
        """Iterations per second here and, when there is a peer, on the pure build."""
        done = [0, 0.0]
        peer = [0, 0.0]
        for _ in range(args.rounds):
            iters, elapsed = measure(name, fraction, spec, slice_s)
            done[0] += iters
            done[1] += elapsed
            if pure is not None:
                request = {"game": name, "fraction": fraction, "spec": spec, "seconds": slice_s}
                got = pure.ask(request)
                peer[0] += got["iters"]
                peer[1] += got["elapsed"]
        return done[0] / done[1], (peer[0] / peer[1] if pure is not None else None)

    results: dict[str, dict[str, float | int | str | None]] = {}
    figures = (
        ("start", 0.0, "ismcts:rollout=random"),
        ("mid", 1 / 3, "ismcts:rollout=random"),
        ("greedy_rollouts", 0.0, "ismcts:rollout=greedy"),
        ("guided_mid", 1 / 3, GUIDED_SPEC),
    )
    for name in args.games.split(","):
        try:
            cls = get_game(name)
            measure(name, 0.0, "ismcts:rollout=random", 0.001)
            measure(name, 1 / 3, "ismcts:rollout=random", 0.001)
        except Exception as exc:  # a game still being written: say so, measure the rest
            results[name] = {"skipped": f"{type(exc).__name__}: {exc}"}
            continue
        row: dict[str, float | int | str | None] = {"players": cls.info.default_players}
        for key, fraction, spec in figures:
            if key == "greedy_rollouts" and game_greedy(cls) is None:
                row[key] = None
                continue
            row[key], row[f"pure_{key}"] = rate(name, fraction, spec)
        results[name] = row
    if pure is not None:
        pure.close()
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    table = Table(title=f"ISMCTS iterations per CPU second ({args.seconds:g} s per position)")
    for col in (
        "game",
        "players",
        "at the start",
        "a third in",
        "greedy rollouts (start)",
        "report's search (a third in)",
    ):
        table.add_column(col, justify="left" if col == "game" else "right")
    for name, row in results.items():
        if "skipped" in row:
            table.add_row(name, "—", "skipped", str(row["skipped"])[:60], "—", "—")
            continue
        greedy = row["greedy_rollouts"]
        table.add_row(
            name,
            str(row["players"]),
            f"{row['start']:,.0f}",
            f"{row['mid']:,.0f}",
            "no greedy player" if greedy is None else f"{greedy:,.0f}",
            f"{row['guided_mid']:,.0f}",
        )
    console = Console()
    console.print(table)
    if pure is not None:
        ratios = Table(title="ISMCTS iterations per CPU second: compiled build over pure Python")
        ratios.add_column("game")
        for heading in ("at the start", "a third in", "greedy rollouts", "report's search"):
            ratios.add_column(heading, justify="right")
        for name, row in results.items():
            if "skipped" in row:
                continue
            cells = [name]
            for key, _, _ in figures:
                fast, slow = row.get(key), row.get(f"pure_{key}")
                ok = isinstance(fast, float) and isinstance(slow, float)
                cells.append(f"{fast / slow:.2f}×" if ok else "—")  # type: ignore[operator]
            ratios.add_row(*cells)
        console.print(ratios)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
