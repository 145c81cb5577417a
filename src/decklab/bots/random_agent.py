"""The uniform random agent: the baseline every other agent must beat."""

from __future__ import annotations

import random

from decklab.bots.base import Agent, AgentSpecError, register_agent
from decklab.engine.state import GameState


class RandomAgent(Agent):
    """Uniform over the legal actions; seeded for reproducible games."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, seat: int) -> int:
        return self.rng.choice(state.legal_actions(seat))


def _make(params: dict[str, str]) -> Agent:
    unknown = set(params) - {"seed"}
    if unknown:
        raise AgentSpecError(f"random takes only seed=N, not {', '.join(sorted(unknown))}")
    try:
        seed = int(params["seed"]) if "seed" in params else None
    except ValueError:
        raise AgentSpecError(
            f"random: seed must be a whole number, not {params['seed']!r}"
        ) from None
    return RandomAgent(seed)


register_agent("random", _make, "uniform over the legal actions (seed=N)")
