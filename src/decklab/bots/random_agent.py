"""The uniform random agent: the baseline every other agent must beat."""

from __future__ import annotations

from decklab.bots.base import SEED, Agent, Hint, make_rng, parse_params
from decklab.bots.registry import register_agent
from decklab.engine.state import GameState


class RandomAgent(Agent):
    """Uniform over the legal actions; seeded for reproducible games."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = make_rng(seed)

    def choose(self, state: GameState, seat: int) -> int:
        return self.rng.choice(state.legal_actions(seat))

    def hint(self, state: GameState, seat: int) -> Hint:
        legal = state.legal_actions(seat)
        action = self.rng.choice(legal)
        return Hint(
            action,
            state.action_to_string(seat, action),
            f"picked at random among {len(legal)} legal actions, without looking at the game",
        )


def _make(params: dict[str, str]) -> Agent:
    return RandomAgent(parse_params("random", params, [SEED])["seed"])


register_agent("random", _make, "uniform over the legal actions", params=[SEED])
