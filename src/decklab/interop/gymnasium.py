"""Gymnasium environments for the games one person can play alone.

Every registered game whose player range allows one seat is registered at import as
``decklab/<game>-v<N>`` (``gymnasium.make("decklab/<game>-v0")``). The observation is
the dict ``{"observation", "action_mask"}`` of the PettingZoo environments, and the
mask is also in ``info["action_mask"]``. The reward is 0 until the end, then the
game's normalised score (1 for a perfect game); ``info`` then carries the game's own
scores. An illegal action ends the episode with reward -1 and
``info["illegal_action"] = True``, as PettingZoo's classic environments do, so an
agent that ignores the mask is told rather than crashed.

For Stable-Baselines3: :meth:`DecklabGymEnv.action_masks` is what ``MaskablePPO``
asks for (no ``ActionMasker`` needed); ``mask_in_observation=False`` makes the
observation the vector alone (the mask then only in ``info`` and ``action_masks()``),
so a policy is not fed the mask as input; ``render_mode="rgb_array"`` draws the
table from the game's layout (decklab/interop/picture.py), and another unknown mode
is accepted with a warning and renders nothing, so ``make_vec_env`` works.

``gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")`` gives
decklab/interop/vector.py's :class:`~decklab.interop.vector.DecklabVectorEnv`, N tables
in one process; decklab/interop/opponents.py seats a learner at a multiplayer table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from decklab.engine.layout import table_function
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import GameState
from decklab.interop import picture
from decklab.interop.table import Table

ObsDict = dict[str, Any]
ILLEGAL_REWARD = -1.0


class DecklabGymEnv(gymnasium.Env[Any, np.int64]):
    """A one-seat decklab game as a Gymnasium environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        mask_in_observation: bool = True,
    ) -> None:
        self.table = Table(game, 1, options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            gymnasium.logger.warn(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}: "
                "render() will return None"
            )
        self.render_mode = render_mode
        self.mask_in_observation = mask_in_observation
        full = self.table.observation_space()
        self.observation_space: spaces.Space[Any] = (
            full if mask_in_observation else full["observation"]
        )
        self.action_space = spaces.Discrete(self.table.num_actions)
        self.state: GameState = self.table.new_state(0)
        self._legal: dict[int, int] = {}
        self._done = False

    def _observe(self) -> tuple[Any, dict[str, Any]]:
        self._legal = {} if self.state.is_terminal() else self.table.legal(self.state, 0)
        mask = self.table.mask(self._legal)
        vector = self.table.observation(self.state, 0)
        if not self.mask_in_observation:
            return vector, {"action_mask": mask}
        return {"observation": vector, "action_mask": mask}, {"action_mask": mask.copy()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (what sb3-contrib's MaskablePPO calls)."""
        return self.table.mask(self._legal).astype(bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.state = self.table.new_state(int(self.np_random.integers(2**63 - 1)))
        self._done = False
        return self._observe()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        index = int(action)
        if index not in self._legal:
            self._done = True
            obs, info = self._observe()
            why = self.state.illegal(0, f"action #{index}").reason
            return obs, ILLEGAL_REWARD, True, False, {**info, "illegal_action": True, "why": why}
        self.state.apply(0, self._legal[index])
        obs, info = self._observe()
        if self.state.is_terminal():
            self._done = True
            info.update(self.table.result_info(self.state))
            return obs, self.table.returns(self.state)[0], True, False, info
        return obs, 0.0, False, False, info

    def render(self) -> Any:
        """``"ansi"``: the table as text; ``"rgb_array"``: as an image (H × W × 3)."""
        if self.render_mode == "ansi":
            return self.state.render(0)
        if self.render_mode == "rgb_array":
            return picture.draw(table_function(self.table.cls)(self.state.view(0)))
        return None


def env_id(game: str) -> str:
    return f"decklab/{game}-v{Table(get_game(game), 1).version}"


def solo_games() -> list[str]:
    """The registered games a single seat can play."""
    return [g for g in game_names() if get_game(g).info.min_players == 1]


def register_all() -> list[str]:
    """Register every solo game with Gymnasium (done at import); returns the ids."""
    ids = []
    for game in solo_games():
        ident = env_id(game)
        if ident not in gymnasium.registry:
            gymnasium.register(
                id=ident,
                entry_point=f"{__name__}:DecklabGymEnv",
                vector_entry_point="decklab.interop.vector:DecklabVectorEnv",
                kwargs={"game": game},
            )
        ids.append(ident)
    return ids


ENV_IDS = register_all()
