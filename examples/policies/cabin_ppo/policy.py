"""The worked example's player: a trained Cabin policy as a decklab agent.

    decklab arena cabin -p python:examples/policies/cabin_ppo/policy.py:agent,greedy -g 200

``train.py`` (beside this file) trains it with Stable-Baselines3's MaskablePPO and
keeps the actor's weights in ``cabin_ppo.npz``; this module plays them with NumPy
alone. It sees what any ``python:`` agent sees: the seat's view, encoded exactly as
the Gymnasium environment encodes it, and the legal actions. It plays the legal
action its network rates highest, so it is deterministic.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

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
        return self.forward(self._table(state).observation(state, seat).astype(np.float32))

    def forward(self, x: np.ndarray) -> np.ndarray:
        """The actor network on an observation vector."""
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


_PLAYER: TrainedCabin | None = None
_TABLES: dict[tuple[int, bool], Table] = {}


def _index_of_text(text: str) -> int:
    """The Cabin's action index of a canonical action text (its encoding numbers the
    engine's actions one to one: a stack ``sN`` is N − 1, then the words)."""
    from decklab.games.cabin import state as cabin

    words = text.split()
    if words[0] == "build":
        return cabin.NEW if words[-1] == "new" else int(words[-1][1:]) - 1
    found = [action for action, word in cabin._WORDS.items() if word == text]
    if not found:
        raise ValueError(f"not a Cabin action: {text!r}")
    return found[0]


def policy(view: dict[str, Any], legal: list[str], seat: str, rng: random.Random) -> str:
    """The same network for a program that sees only the view and the legal texts, as
    the server's bot API gives them (``examples/bots/remote_bot.py --policy ...``)."""
    global _PLAYER
    if _PLAYER is None:
        _PLAYER = TrainedCabin()
    key = (int(view["stacks_allowed"]), bool(view["beach_dump"]))
    if key not in _TABLES:
        _TABLES[key] = Table("cabin", 1, {"stacks": key[0], "beach_dump": key[1]})
    table = _TABLES[key]
    features = table.hooks.encode(view, 1, table.options)
    x = np.bincount(features.indices, features.weights, minlength=table.obs_size)
    scores = _PLAYER.forward(x.astype(np.float32))
    return max(legal, key=lambda text: (scores[_index_of_text(text)], text))
