"""Print what every bot plays from fixed seeds, one JSON line per decision.

    python tests/same_moves.py [--quick]

``tests/test_build.py`` runs it under the compiled build and under the pure one
(``DECKLAB_PURE=1``) in subprocesses and compares the two outputs line by line:
the same seed must give the same moves, and the same search statistics, on both.
Budgets are iterations, never seconds, so the output depends on nothing but the seeds.
"""

from __future__ import annotations

import json
import random
import sys

import decklab
from decklab.bots import make_agent
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import GameState

SEARCH_BOTS = (
    "ismcts:iters=16,seed=3",
    "ismcts:iters=16,rollout=greedy,seed=3",
    "ismcts:iters=16,root=halving,rollout=greedy,depth=8,prior=greedy,model=1,topk=4,"
    "margin=0.7,purify=0.5,gamma=0.3,seed=3",
    "ismcts:iters=24,root=race,rollout=greedy,depth=8,prior=greedy,model=1,topk=4,"
    "margin=0.7,seed=3",
    "ismcts:iters=16,rollout=greedy,depth=8,prior=greedy,look=3,seed=3",
    "pimc:iters=16,dets=2,seed=3",
    "cheat:iters=16,seed=3",
    "cheat:iters=24,root=race,rollout=greedy,depth=8,prior=greedy,model=1,topk=4,margin=0.7,seed=3",
    "expert:iters=16,seed=3",
    "fast:seed=3",
    "fast:plan=2,dets=1,depth=8,seed=3",
)
"""Searching bots: asked for a hint at a few positions of a seeded game."""

PLAYING_BOTS = ("random:seed=5", "greedy:seed=5")
"""Cheap bots: they play whole seeded games against each other."""


def positions(cls: type[GameState], seed: int, count: int) -> list[GameState]:
    """``count`` states spread over one seeded random game, each at a real decision."""
    rng = random.Random(seed)
    state = cls.new(seed=seed)
    seen: list[GameState] = []
    while not state.is_terminal():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            seen.append(state.clone())
        state.apply(seat, rng.choice(legal))
    step = max(1, len(seen) // count)
    return seen[::step][:count]


def main(quick: bool) -> None:
    out = sys.stdout
    for name in game_names():
        cls = get_game(name)
        n = cls.info.default_players
        # whole games between the cheap bots, every seat its own agent
        for spec in PLAYING_BOTS:
            agents = [make_agent(spec) for _ in range(n)]
            state = cls.new(n, seed=11)
            moves = []
            while not state.is_terminal():
                for seat in state.to_act():
                    if state.is_terminal() or seat not in state.to_act():
                        continue
                    action = agents[seat].choose(state, seat)
                    moves.append(state.action_to_string(seat, action))
                    state.apply(seat, action)
            out.write(
                json.dumps({"game": name, "bot": spec, "moves": moves, "result": state.result()})
                + "\n"
            )
        for i, state in enumerate(positions(cls, 21, 2 if quick else 3)):
            seat = state.to_act()[0]
            for spec in SEARCH_BOTS:
                hint = make_agent(spec).hint(state, seat)
                out.write(
                    json.dumps(
                        {
                            "game": name,
                            "position": i,
                            "bot": spec,
                            "action": hint.text,
                            "values": {k: repr(v) for k, v in sorted(hint.values.items())},
                            "visits": dict(sorted(hint.visits.items())),
                            "policy": {k: repr(v) for k, v in sorted(hint.policy.items())},
                        }
                    )
                    + "\n"
                )
    out.write(json.dumps({"build": decklab.BUILD}) + "\n")


if __name__ == "__main__":
    main("--quick" in sys.argv[1:])
