"""Random-playout speed of every game, against OpenSpiel peers measured in the same run.

    python bench/playouts.py [--seconds 5] [--rounds 5] [--games cabin,corporation] [--json]
                             [--no-pure] [--clock wall|cpu]

Every engine is driven by the same kind of Python loop: ask for the legal
actions, pick one uniformly, apply it. A *decision* is one seat choosing one
action (a simultaneous round of n seats is n decisions, for OpenSpiel's
goofspiel as for Corporation). Ratios are against OpenSpiel's C++
``goofspiel(num_cards=8,players=4)`` and its pure-Python ``python_kuhn_poker``.

Where the example plugin game goofspiel is installed (``pip install --no-deps
examples/plugins/goofspiel``; it is then one of the registered games), it is also
measured against OpenSpiel's C++ goofspiel with the same cards and players
(``--goof-cards``, ``--goof-players``; a shuffled prize deck, ``points_order=random``,
in both): the same game, written once as a decklab plugin and once in C++.

On the compiled build each game is also measured on the pure-Python build, in a
peer process that plays its slices in turn with the others (``bench/peer.py``);
the last column is the compiled build's speed over the pure one's.

``--clock cpu`` times every engine by this thread's CPU time instead of the wall
clock (the same work is counted either way; on a shared machine the CPU clock does
not count the time the process waits for a core, which hits the engines unevenly
even in interleaved slices). The pure peer then uses its own CPU time too.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from decklab.engine.registry import game_names, get_game
from peer import SERVE_FLAG, serve, start_peer  # bench/peer.py (the script's own folder)


class _Meter:
    """Accumulates decisions, games and time of one engine over several slices.

    Engines are timed in interleaved slices (peer, game, peer, game …) so that a
    change of load on a shared machine hits all of them alike and the ratios,
    which are what we report, stay meaningful.
    """

    def __init__(
        self,
        play_one: Callable[[random.Random], int],
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.play_one = play_one
        self.clock = clock
        self.rng = random.Random(0)
        self.decisions = 0
        self.games = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        clock = self.clock
        start = clock()
        while True:
            self.decisions += self.play_one(self.rng)
            self.games += 1
            elapsed = clock() - start
            if elapsed >= seconds:
                self.elapsed += elapsed
                return

    def rates(self) -> tuple[float, float]:
        return self.decisions / self.elapsed, self.games / self.elapsed


PLUGIN_GAME = "goofspiel"
"""The example plugin game (examples/plugins/goofspiel), paired with OpenSpiel's C++ one."""


def decklab_loop(
    name: str, players: int | None, options: dict[str, Any] | None = None
) -> Callable[[random.Random], int]:
    cls = get_game(name)
    counter = iter(range(1 << 62))

    def play_one(rng: random.Random) -> int:
        state = cls.new(players, options, seed=next(counter))
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


def _serve_pure() -> int:
    """The pure peer: play slices of the games it is asked for, report running totals."""
    meters: dict[str, _Meter] = {}

    def handle(request: dict[str, Any]) -> dict[str, Any]:
        name, players = request["game"], request["players"]
        meter = meters.get(name)
        if meter is None:
            clock = time.thread_time if request.get("clock") == "cpu" else time.perf_counter
            meter = meters[name] = _Meter(decklab_loop(name, players), clock)
        meter.run(request["seconds"])
        return {"decisions": meter.decisions, "games": meter.games, "elapsed": meter.elapsed}

    return serve(handle)


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
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="time per engine, all slices together"
    )
    parser.add_argument(
        "--games", default=",".join(game_names()), help="comma-separated game names"
    )
    parser.add_argument(
        "--players", type=int, default=None, help="player count (default: each game's)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="interleaved slices per engine")
    parser.add_argument(
        "--goof-cards", type=int, default=13, help="cards of the plugin goofspiel and its peer"
    )
    parser.add_argument(
        "--goof-players", type=int, default=2, help="players of the plugin goofspiel and its peer"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--no-pure", action="store_true", help="do not measure the pure-Python build beside it"
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time engines by the wall clock or by this thread's CPU time",
    )
    argv = sys.argv[1:] if argv is None else argv
    if argv == [SERVE_FLAG]:
        return _serve_pure()
    args = parser.parse_args(argv)

    peers = {
        "OpenSpiel goofspiel(8 cards, 4p) C++": openspiel_loop("goofspiel(num_cards=8,players=4)"),
        "OpenSpiel python_kuhn_poker": openspiel_loop("python_kuhn_poker"),
    }
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    meters: dict[str, _Meter] = {}
    for label, loop in peers.items():
        if loop is None:
            print(
                "open-spiel is not installed: pip install open-spiel (make bench does)",
                file=sys.stderr,
            )
            return 2
        meters[label] = _Meter(loop, clock)
    games: dict[str, tuple[str, int]] = {}
    for name in args.games.split(","):
        if name == PLUGIN_GAME:
            continue  # measured below, beside its OpenSpiel twin
        players = args.players or get_game(name).info.default_players
        games[f"{name} ({players}p)"] = (name, players)
        meters[f"{name} ({players}p)"] = _Meter(decklab_loop(name, players), clock)
    twins: dict[str, str] = {}
    if PLUGIN_GAME in game_names():
        cards, players = args.goof_cards, args.goof_players
        peer_label = f"OpenSpiel goofspiel({cards} cards, {players}p) C++"
        loop = openspiel_loop(f"goofspiel(num_cards={cards},players={players})")
        assert loop is not None  # open-spiel was found above
        meters[peer_label] = _Meter(loop, clock)
        label = f"{PLUGIN_GAME} plugin ({cards} cards, {players}p)"
        options = {"cards": cards}
        meters[label] = _Meter(decklab_loop(PLUGIN_GAME, players, options), clock)
        twins[label] = peer_label
    else:
        print(
            f"{PLUGIN_GAME} is not installed: pip install --no-deps examples/plugins/goofspiel "
            "to measure it against OpenSpiel's",
            file=sys.stderr,
        )
    pure = start_peer(__file__, not args.no_pure)
    pure_totals: dict[str, dict[str, Any]] = {}
    slice_s = args.seconds / args.rounds
    for _ in range(args.rounds):
        for label, meter in meters.items():
            meter.run(slice_s)
            if pure is not None and label in games:
                name, players = games[label]
                request = {
                    "game": name,
                    "players": players,
                    "seconds": slice_s,
                    "clock": args.clock,
                }
                pure_totals[label] = pure.ask(request)
    if pure is not None:
        pure.close()
    goof_label, kuhn_label = peers
    goof = meters[goof_label].rates()[0]
    kuhn = meters[kuhn_label].rates()[0]
    results: dict[str, dict[str, float]] = {}
    for label, meter in meters.items():
        dps, gps = meter.rates()
        results[label] = {"decisions_per_s": dps, "games_per_s": gps}
        if label not in peers and label not in twins.values():
            results[label]["vs_goofspiel"] = dps / goof
            results[label]["vs_python_kuhn"] = dps / kuhn
        if label in twins:
            results[label]["vs_same_game_cpp"] = dps / meters[twins[label]].rates()[0]
        if label in pure_totals:
            got = pure_totals[label]
            results[label]["pure_decisions_per_s"] = got["decisions"] / got["elapsed"]
            results[label]["vs_pure"] = dps / results[label]["pure_decisions_per_s"]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    import decklab

    per = "CPU s" if args.clock == "cpu" else "s"
    table = Table(
        title=f"Random playouts ({decklab.BUILD} build), {args.seconds:g} {per} per engine"
    )
    columns = ["engine", "decisions/s", "games/s", "× goofspiel C++", "× python kuhn"]
    if twins:
        columns.append("× same game C++")
    if pure_totals:
        columns += ["pure decisions/s", "× pure"]
    for col in columns:
        table.add_column(col, justify="right" if col != "engine" else "left")
    for label, row in results.items():
        cells = [
            label,
            f"{row['decisions_per_s']:,.0f}",
            f"{row['games_per_s']:,.1f}",
            f"{row['vs_goofspiel']:.2f}" if "vs_goofspiel" in row else "—",
            f"{row['vs_python_kuhn']:.2f}" if "vs_python_kuhn" in row else "—",
        ]
        if twins:
            cells.append(f"{row['vs_same_game_cpp']:.2f}" if "vs_same_game_cpp" in row else "—")
        if pure_totals:
            cells += (
                [f"{row['pure_decisions_per_s']:,.0f}", f"{row['vs_pure']:.2f}"]
                if "vs_pure" in row
                else ["—", "—"]
            )
        table.add_row(*cells)
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
