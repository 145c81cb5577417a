"""The worked example's player: a trained Cabin policy as a decklab agent.

    decklab arena cabin -p python:examples/policies/cabin_ppo/policy.py:agent,greedy -g 200

``train.py`` (beside this file) trains it with Stable-Baselines3's MaskablePPO and
keeps the actor's weights in ``cabin_ppo.npz``; this module plays them with NumPy
alone. It sees what any ``python:`` agent sees: the seat's view, encoded exactly as
the Gymnasium environment encodes it, and the legal actions. It plays the legal
action its network rates highest, so it is deterministic.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from decklab.bots.base import Agent
from decklab.engine.state import GameState
from decklab.interop.table import Table

WEIGHTS = Path(__file__).resolve().parent / "cabin_ppo.npz"


class TrainedCabin(Agent):
    """The network's best legal action, from the seat's view only."""

    name = "cabin-ppo"
    fair = True

    def __init__(self, weights: Path = WEIGHTS) -> None:
        with np.load(weights) as found:
            count = len(found.files) // 2
            self.layers = [(found[f"w{i}"], found[f"b{i}"]) for i in range(count)]
        self.tables: dict[tuple[int, str], Table] = {}

    def _table(self, state: GameState) -> Table:
        key = (state.num_players, repr(sorted(state.options.items())))
        if key not in self.tables:
            self.tables[key] = Table(type(state), state.num_players, state.options)
        return self.tables[key]

    def logits(self, state: GameState, seat: int) -> np.ndarray:
        """The network's score of every action index, from ``state.view(seat)``."""
        x = self._table(state).observation(state, seat).astype(np.float32)
        for i, (w, b) in enumerate(self.layers):
            x = w @ x + b
            if i < len(self.layers) - 1:
                x = np.tanh(x)  # SB3's default activation for PPO's MlpPolicy
        return x

    def choose(self, state: GameState, seat: int) -> int:
        legal = self._table(state).legal(state, seat)  # action index → engine action
        scores = self.logits(state, seat)
        best = max(legal, key=lambda index: (scores[index], -index))
        return legal[best]


def agent() -> TrainedCabin:
    """What the ``python:`` spec names: built once per process, then reseeded."""
    return TrainedCabin()
