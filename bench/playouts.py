"""Random-playout speed of every game, against OpenSpiel peers measured in the same run.

    python bench/playouts.py [--seconds 3] [--games cabin,corporation] [--json]

Every engine is driven by the same kind of Python loop: ask for the legal
actions, pick one uniformly, apply it. A *decision* is one seat choosing one
action (a simultaneous round of n seats is n decisions, for OpenSpiel's
goofspiel as for Corporation). Ratios are against OpenSpiel's C++
``goofspiel(num_cards=8,players=4)`` and its pure-Python ``python_kuhn_poker``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from decklab.engine.registry import game_names, get_game


def _time_loop(play_one: Callable[[random.Random], int], seconds: float) -> tuple[float, float]:
    rng = random.Random(0)
    decisions = games = 0
    start = time.perf_counter()
    while True:
        decisions += play_one(rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decisions / elapsed, games / elapsed


def decklab_loop(name: str, players: int | None) -> Callable[[random.Random], int]:
    cls = get_game(name)
    counter = iter(range(1 << 62))

    def play_one(rng: random.Random) -> int:
        state = cls.new(players, seed=next(counter))
        n = 0
        choice = rng.choice
        while True:
            acting = state.to_act()
            if not acting:
                return n
            seat = acting[0]
            state.apply(seat, choice(state.legal_actions(seat)))
            n += 1

    return play_one


def openspiel_loop(game_string: str) -> Callable[[random.Random], int] | None:
    try:
        import pyspiel
        from open_spiel.python.games import kuhn_poker  # noqa: F401  registers python_kuhn_poker
    except ImportError:
        return None
    game = pyspiel.load_game(game_string)
    players = game.num_players()

    def play_one(rng: random.Random) -> int:
        state = game.new_initial_state()
        n = 0
        choice = rng.choice
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(choice(outcomes)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([choice(state.legal_actions(p)) for p in range(players)])
                n += players
            else:
                state.apply_action(choice(state.legal_actions()))
                n += 1
        return n

    return play_one


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="time per engine")
    parser.add_argument(
        "--games", default=",".join(game_names()), help="comma-separated game names"
    )
    parser.add_argument(
        "--players", type=int, default=None, help="player count (default: each game's)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    peers = {
        "OpenSpiel goofspiel(8 cards, 4p) C++": openspiel_loop("goofspiel(num_cards=8,players=4)"),
        "OpenSpiel python_kuhn_poker": openspiel_loop("python_kuhn_poker"),
    }
    results: dict[str, dict[str, float]] = {}
    for label, loop in peers.items():
        if loop is None:
            print(
                "open-spiel is not installed: pip install open-spiel (make bench does)",
                file=sys.stderr,
            )
            return 2
        dps, gps = _time_loop(loop, args.seconds)
        results[label] = {"decisions_per_s": dps, "games_per_s": gps}
    goof = results["OpenSpiel goofspiel(8 cards, 4p) C++"]["decisions_per_s"]
    kuhn = results["OpenSpiel python_kuhn_poker"]["decisions_per_s"]
    for name in args.games.split(","):
        cls = get_game(name)
        players = args.players or cls.info.default_players
        dps, gps = _time_loop(decklab_loop(name, players), args.seconds)
        results[f"{name} ({players}p)"] = {
            "decisions_per_s": dps,
            "games_per_s": gps,
            "vs_goofspiel": dps / goof,
            "vs_python_kuhn": dps / kuhn,
        }
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    table = Table(title=f"Random playouts, {args.seconds:g} s per engine")
    for col in ("engine", "decisions/s", "games/s", "× goofspiel C++", "× python kuhn"):
        table.add_column(col, justify="right" if col != "engine" else "left")
    for label, row in results.items():
        table.add_row(
            label,
            f"{row['decisions_per_s']:,.0f}",
            f"{row['games_per_s']:,.1f}",
            f"{row['vs_goofspiel']:.2f}" if "vs_goofspiel" in row else "—",
            f"{row['vs_python_kuhn']:.2f}" if "vs_python_kuhn" in row else "—",
        )
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
