"""ISMCTS speed: search iterations (simulations) per second, per game.

    python bench/search.py [--seconds 2] [--games corporation,facade] [--json]

Each game is searched from two positions, its first decision and one a third
of the way through a random game (where rollouts are shorter), by
``ismcts:time=SECONDS`` with random rollouts, and with greedy rollouts where
the game ships a rule-based player. An iteration is one determinization, one
descent of the tree, one rollout to the end and one backup. The last column is
the configuration of the strength report (``docs/strength.md``): greedy
rollouts cut off after 8 moves and judged by the game's estimate, the other
seats modelled by their greedy move, the game's top 4 moves halved at the root.
Games that do not import (still being written) are listed as skipped.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from rich.console import Console
from rich.table import Table

from decklab.bots import make_agent
from decklab.bots.base import format_spec
from decklab.bots.greedy import game_greedy
from decklab.bots.ismcts import GUIDED
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import GameState

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


def sims_per_second(state: GameState, seat: int, spec: str, seconds: float) -> float:
    agent = make_agent(f"{spec},time={seconds},seed=0")
    start = time.perf_counter()
    hint = agent.hint(state, seat)
    elapsed = time.perf_counter() - start
    return sum(hint.visits.values()) / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="search time per position")
    parser.add_argument("--games", default=",".join(game_names()), help="comma-separated names")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    results: dict[str, dict[str, float | int | str | None]] = {}
    for name in args.games.split(","):
        try:
            cls = get_game(name)
            start, start_seat = position(cls, 0.0, seed=1)
            mid, mid_seat = position(cls, 1 / 3, seed=1)
        except Exception as exc:  # a game still being written: say so, measure the rest
            results[name] = {"skipped": f"{type(exc).__name__}: {exc}"}
            continue
        row: dict[str, float | int | str | None] = {
            "players": cls.info.default_players,
            "start": sims_per_second(start, start_seat, "ismcts:rollout=random", args.seconds),
            "mid": sims_per_second(mid, mid_seat, "ismcts:rollout=random", args.seconds),
            "greedy_rollouts": None,
            "guided_mid": sims_per_second(mid, mid_seat, GUIDED_SPEC, args.seconds),
        }
        if game_greedy(cls) is not None:
            row["greedy_rollouts"] = sims_per_second(
                start, start_seat, "ismcts:rollout=greedy", args.seconds
            )
        results[name] = row
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    table = Table(title=f"ISMCTS iterations per second ({args.seconds:g} s per position)")
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
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
