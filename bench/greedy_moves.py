"""A digest of everything the games' greedy players do, to compare before and after a speed-up.

    python bench/greedy_moves.py [--games 40] [--out FILE] [--against FILE]

The findings pages are produced with the greedy players, so a change made for
speed must not change a single move. For every game, at several table sizes and
with each variant option the findings use, ``--games`` seeded games are played
with greedy at every seat; the digest covers every move, and at every decision
the greedy module's ``greedy_action``, ``action_values`` (exact ``repr`` of the floats: search ranks
moves by them) and ``expected_scores`` (search's cut-off judgement). Write the
digests before the change (``--out``), then compare after it (``--against``):
the script exits 1 and names the configurations that differ.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from decklab.bots import make_agent
from decklab.engine.registry import get_game

CONFIGS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("facade", 2, {}),
    ("facade", 3, {}),
    ("facade", 4, {}),
    ("facade", 3, {"fifth_suit": True}),
    ("facade", 4, {"fifth_suit": True}),
    ("lonely-face", 2, {}),
    ("lonely-face", 3, {"suit_die": True}),
    ("lonely-face", 4, {}),
    ("cabin", 1, {}),
    ("cabin", 1, {"stacks": 7}),
    ("cabin", 1, {"beach_dump": True}),
    ("corporation", 4, {}),
    ("corporation", 6, {}),
    ("corporation", 10, {}),
    ("notorious", 3, {}),
    ("notorious", 4, {}),
    ("notorious", 8, {"games": 2}),
)


def digest(game: str, players: int, options: dict[str, Any], games: int) -> str:
    cls = get_game(game)
    module = importlib.import_module(cls.__module__.rpartition(".")[0] + ".greedy")
    h = hashlib.sha256()
    for seed in range(games):
        agents = [make_agent(f"greedy:seed={seed * 31 + s}") for s in range(players)]
        state = cls.new(players, options, seed=seed)
        probe = random.Random(seed)
        while True:
            acting = state.to_act()
            if not acting:
                break
            seat = acting[0]
            if hasattr(module, "action_values"):
                values = module.action_values(state, seat, probe)
                h.update(repr(sorted(values.items())).encode())
            h.update(repr(module.greedy_action(state, seat, probe)).encode())
            if hasattr(module, "expected_scores"):
                h.update(repr(module.expected_scores(state)).encode())
            action = agents[seat].choose(state, seat)
            h.update(f"{seat}:{action};".encode())
            state.apply(seat, action)
        h.update(repr(state.scores()).encode())
    return h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    import decklab

    got = {
        f"{g} ×{n} {json.dumps(o, sort_keys=True)}": digest(g, n, o, args.games)
        for g, n, o in CONFIGS
    }
    print(f"build: {decklab.BUILD}; {args.games} games per configuration")
    if args.out is not None:
        args.out.write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
    if args.against is not None:
        want = json.loads(args.against.read_text(encoding="utf-8"))
        differ = [k for k in want if want[k] != got.get(k)]
        for key in got:
            print(("DIFFERENT " if key in differ else "same      ") + key)
        sys.exit(1 if differ else 0)
    for key, value in got.items():
        print(value[:16], key)


if __name__ == "__main__":
    main()
