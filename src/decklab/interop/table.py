"""What every adapter needs about one game at one player count: hooks, sizes, masks.

Each game ships ``decklab.games.<package>.encoding`` (found from the state class's
module, the way ``greedy.py`` is found, so no game is named here) with:

``encode(view, num_players, options) -> Features``
    the fixed-size observation, computed from ``view(seat)`` alone;
``action_space_size(num_players, options) -> int`` and
``action_index(num_players, options, action) -> int``
    a fixed action space and where each engine action falls in it (one-to-one on
    the legal actions of any state);
``max_game_length(num_players, options) -> int``
    an upper bound on the decisions of a game (OpenSpiel asks for it);
``VERSION`` (int), optionally ``HAS_CHANCE`` (bool, default True) and
``MAX_CHANCE_OUTCOMES`` (int: the most outcomes one draw can have, when a draw has
more than the largest deck, the seats or a die).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from decklab.engine.errors import DecklabError
from decklab.engine.features import Features
from decklab.engine.gamecode import game_function
from decklab.engine.registry import get_game
from decklab.engine.state import GameState, seat_name

EncodeFn = Callable[[Mapping[str, Any], int, Mapping[str, Any]], Features]
SizeFn = Callable[[int, Mapping[str, Any]], int]
IndexFn = Callable[[int, Mapping[str, Any], int], int]


@dataclass(frozen=True)
class Hooks:
    """A game's ``encoding`` module, checked once."""

    encode: EncodeFn
    action_space_size: SizeFn
    action_index: IndexFn
    max_game_length: SizeFn
    version: int
    has_chance: bool
    max_chance_outcomes: int


class MissingHook(DecklabError, LookupError):
    """A game whose folder does not provide what an adapter needs (its ``encoding.py``)."""


def hooks_for(cls: type[GameState]) -> Hooks:
    """The game's encoding hooks; a clear error if its folder has none."""
    found = {
        name: game_function(cls, "encoding", name)
        for name in ("encode", "action_space_size", "action_index", "max_game_length")
    }
    missing = [name for name, fn in found.items() if fn is None]
    if missing:
        raise MissingHook(
            f"{cls.info.title} has no encoding hook for {', '.join(missing)} "
            "(its folder needs an encoding.py, see docs/interop.md)"
        )
    module = importlib.import_module(cast(Callable[..., object], found["encode"]).__module__)
    return Hooks(
        encode=cast(EncodeFn, found["encode"]),
        action_space_size=cast(SizeFn, found["action_space_size"]),
        action_index=cast(IndexFn, found["action_index"]),
        max_game_length=cast(SizeFn, found["max_game_length"]),
        version=int(getattr(module, "VERSION", 0)),
        has_chance=bool(getattr(module, "HAS_CHANCE", True)),
        max_chance_outcomes=int(getattr(module, "MAX_CHANCE_OUTCOMES", 0)),
    )


def env_name(game: str) -> str:
    """``two-words`` → ``two_words``: the registry name as a Python identifier."""
    return game.replace("-", "_")


Obs = npt.NDArray[np.float32]
OBS_BOUND = 1000.0
"""Observation values are clipped to ±OBS_BOUND, so the spaces have finite bounds (the
encodings scale their numbers to about 0…1; only an extreme option reaches the bound)."""
Mask = npt.NDArray[np.int8]


class Table:
    """One game, one player count, resolved options: the adapters' common ground."""

    def __init__(
        self,
        game: str | type[GameState],
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.cls = get_game(game) if isinstance(game, str) else game
        self.info = self.cls.info
        self.num_players = self.info.default_players if num_players is None else num_players
        self.options = self.info.resolve_options(self.num_players, options)
        self.given_options = dict(options or {})
        self.hooks = hooks_for(self.cls)
        self.num_actions = self.hooks.action_space_size(self.num_players, self.options)
        self.version = self.info.version - 1 + self.hooks.version
        """Env version: the game's version (from 1) and its encoding's (from 0), so ``_v0``."""
        sample = self.cls.new(self.num_players, self.given_options, seed=0)
        self.layout = self.hooks.encode(sample.view(0), self.num_players, self.options).layout()
        self.obs_size = sum(size for _, _, size, _ in self.layout)
        self.agents = [seat_name(i) for i in range(self.num_players)]
        self._index_of: dict[int, int] = {}

    def observation_space(self) -> spaces.Dict:
        """``{"observation": Box, "action_mask": Box of int8}``, PettingZoo's classic layout."""
        return spaces.Dict(
            {
                "observation": spaces.Box(
                    -OBS_BOUND, OBS_BOUND, (self.obs_size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
            }
        )

    @property
    def name(self) -> str:
        """The versioned environment name, ``<game>_v<N>``."""
        return f"{env_name(self.info.name)}_v{self.version}"

    def new_state(self, seed: int | None) -> GameState:
        return self.cls.new(self.num_players, self.given_options, seed=seed)

    def observation(self, state: GameState, seat: int) -> Obs:
        """The seat's observation vector, from ``state.view(seat)`` and nothing else."""
        f = self.hooks.encode(state.view(seat), self.num_players, self.options)
        if f.size != self.obs_size:
            raise AssertionError(
                f"{self.info.name}'s encoding gave {f.size} values, not {self.obs_size}"
            )
        dense = np.bincount(f.indices, f.weights, minlength=self.obs_size)
        return np.clip(dense, -OBS_BOUND, OBS_BOUND).astype(np.float32)

    def legal(self, state: GameState, seat: int) -> dict[int, int]:
        """Action index → engine action, for the seat's legal actions now (empty if none)."""
        cache = self._index_of
        out = {}
        for a in state.legal_actions(seat):
            i = cache.get(a)
            if i is None:
                i = cache[a] = self.hooks.action_index(self.num_players, self.options, a)
            out[i] = a
        return out

    def index_of(self, action: int) -> int:
        """The index of an engine action (the numbering depends on the action alone)."""
        i = self._index_of.get(action)
        if i is None:
            i = self._index_of[action] = self.hooks.action_index(
                self.num_players, self.options, action
            )
        return i

    def mask(self, legal: Mapping[int, int]) -> Mask:
        out = np.zeros(self.num_actions, dtype=np.int8)
        if legal:
            out[list(legal)] = 1
        return out

    def returns(self, state: GameState) -> list[float]:
        """The reward of a finished game: a win shared by k seats is 1/k (solo: the
        game's normalised score, 1 for a perfect game), as search uses."""
        return (
            [float(u) for u in state.utilities()]
            if state.is_terminal()
            else [0.0] * len(self.agents)
        )

    def result_info(self, state: GameState) -> dict[str, Any]:
        """What ``infos`` carry at the end: the game's own scores and winners."""
        result = state.result()
        return {"scores": result["scores"], "winners": result["winners"]}
