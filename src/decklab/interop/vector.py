"""N tables of a one-seat game stepped in one process, through Gymnasium's vector API.

``gymnasium.make_vec("decklab/cabin-v0", num_envs=8, vectorization_mode="vector_entry_point")``
(or :class:`DecklabVectorEnv` directly) gives batched numpy arrays: the observation is
``{"observation": (N, size) float32, "action_mask": (N, actions) int8}`` (the vector
alone with ``mask_in_observation=False``), rewards ``(N,) float64``, flags ``(N,) bool``,
and ``info["action_mask"]`` is the ``(N, actions)`` mask every step; the game's scores
at an episode's end are in ``info["scores"]`` with Gymnasium's ``info["_scores"]``
marking the envs that have them. :meth:`DecklabVectorEnv.action_masks` is the mask
as booleans.

Why not ``SyncVectorEnv``: it wraps each env in checkers and copies every observation
through the space's generic ``concatenate``; here the tables are plain objects and the
batch is two ``np.stack`` calls, with no subprocess (the games are pure Python, so
``AsyncVectorEnv`` pays pickling for every step of a cheap game).

Autoreset is Gymnasium 1.x's default, ``AutoresetMode.NEXT_STEP`` (in
``metadata["autoreset_mode"]``): the step after an env terminates resets it, ignoring
its action, and returns the first observation of the new episode with reward 0 and
both flags false. Seeds: ``reset(seed=s)`` seeds env ``i`` with ``s + i`` (or takes a
list), so the same seed gives the same trajectories; the new episodes that autoreset
starts draw their deals from each env's own generator, so they are reproducible too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from decklab.interop.gymnasium import DecklabGymEnv


class DecklabVectorEnv(VectorEnv[Any, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` independent tables of one solo game, batched."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "rgb_array"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        game: str,
        num_envs: int = 1,
        options: Mapping[str, Any] | None = None,
        mask_in_observation: bool = True,
        render_mode: str | None = None,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.envs = [
            DecklabGymEnv(game, options, render_mode, mask_in_observation) for _ in range(num_envs)
        ]
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.mask_in_observation = mask_in_observation
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)

    def _batch(self, obs: Sequence[Any], infos: Sequence[dict[str, Any]]) -> tuple[Any, Any]:
        masks = np.stack([info["action_mask"] for info in infos])
        if self.mask_in_observation:
            batched: Any = {
                "observation": np.stack([o["observation"] for o in obs]),
                "action_mask": np.stack([o["action_mask"] for o in obs]),
            }
        else:
            batched = np.stack(obs)
        return batched, masks

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Reset every table; ``seed`` int ``s`` seeds table ``i`` with ``s + i``."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            if len(seed) != self.num_envs:
                raise ValueError(f"{len(seed)} seeds for {self.num_envs} envs")
            seeds = list(seed)
        pairs = [env.reset(seed=s) for env, s in zip(self.envs, seeds, strict=True)]
        self._autoreset[:] = False
        obs, masks = self._batch([p[0] for p in pairs], [p[1] for p in pairs])
        return obs, {"action_mask": masks}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        Any,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Step every table; one that ended on the previous step is reset instead."""
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=np.bool_)
        truncated = np.zeros(n, dtype=np.bool_)
        obs_list: list[Any] = []
        info_list: list[dict[str, Any]] = []
        extras: dict[str, Any] = {}
        for i, env in enumerate(self.envs):
            if self._autoreset[i]:
                obs, info = env.reset()
            else:
                obs, reward, term, trunc, info = env.step(actions[i])
                rewards[i], terminated[i], truncated[i] = reward, term, trunc
                if term or trunc:
                    extras = self._add_info(
                        extras, {k: v for k, v in info.items() if k != "action_mask"}, i
                    )
            obs_list.append(obs)
            info_list.append(info)
        self._autoreset = terminated | truncated
        batched, masks = self._batch(obs_list, info_list)
        return batched, rewards, terminated, truncated, {**extras, "action_mask": masks}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``(num_envs, actions)`` booleans: each table's legal actions now."""
        return np.stack([env.action_masks() for env in self.envs])

    def render(self) -> tuple[Any, ...] | None:
        """Every table's frame (``"ansi"`` text or ``"rgb_array"`` image), as
        ``SyncVectorEnv`` gives them; ``None`` without a render mode."""
        if self.render_mode not in self.metadata["render_modes"]:
            return None
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
