"""The vector env: batched shapes and dtypes, a mask per table, next-step autoreset,
seeds, and the same trajectories as Gymnasium's own ``SyncVectorEnv`` of single envs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is part of decklab[rl]")

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from decklab.interop import gymnasium as dg  # noqa: E402
from decklab.interop.vector import DecklabVectorEnv  # noqa: E402

GAME = "cabin"
N = 3


def first_legal(masks: np.ndarray) -> np.ndarray:
    """The first legal action of each table (0 for a table that has none: it resets)."""
    return np.array([int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks])


def run(env: Any, seed: int, steps: int) -> list[Any]:
    obs, info = env.reset(seed=seed)
    out: list[Any] = [obs]
    for _ in range(steps):
        obs, reward, term, trunc, info = env.step(first_legal(info["action_mask"]))
        out.append((obs, reward, term, trunc))
    return out


def test_make_vec_gives_the_vector_env_with_batched_spaces() -> None:
    env = gymnasium.make_vec(dg.env_id(GAME), num_envs=N, vectorization_mode="vector_entry_point")
    assert isinstance(env.unwrapped, DecklabVectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    single = env.single_observation_space
    obs, info = env.reset(seed=0)
    assert obs in env.observation_space
    assert obs["observation"].shape == (N, *single["observation"].shape)
    assert obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (N, env.single_action_space.n)
    assert obs["action_mask"].dtype == np.int8
    assert np.array_equal(info["action_mask"], obs["action_mask"])
    assert env.unwrapped.action_masks().dtype == np.bool_
    obs, reward, term, trunc, info = env.step(first_legal(info["action_mask"]))
    assert reward.shape == term.shape == trunc.shape == (N,)
    assert reward.dtype == np.float64 and term.dtype == np.bool_ and trunc.dtype == np.bool_
    assert obs in env.observation_space


def test_each_table_has_its_own_mask() -> None:
    env = DecklabVectorEnv(GAME, num_envs=N)
    _, info = env.reset(seed=1)
    for i, table in enumerate(env.envs):
        assert np.array_equal(info["action_mask"][i], table.action_masks().astype(np.int8))
    # different deals: the tables' observations differ
    obs, _ = env.reset(seed=1)
    assert not np.array_equal(obs["observation"][0], obs["observation"][1])


def test_mask_out_of_observation_gives_the_vector_alone() -> None:
    env = DecklabVectorEnv(GAME, num_envs=2, mask_in_observation=False)
    obs, info = env.reset(seed=0)
    assert isinstance(obs, np.ndarray) and obs.shape == (2, env.single_observation_space.shape[0])
    assert info["action_mask"].shape == (2, env.single_action_space.n)


def test_a_finished_table_resets_on_the_next_step_and_reports_its_scores() -> None:
    env = DecklabVectorEnv(GAME, num_envs=2)
    _, info = env.reset(seed=3)
    for _ in range(2000):
        _, _, term, _, info = env.step(first_legal(info["action_mask"]))
        if term.any():
            break
    else:
        pytest.fail("no table finished")
    i = int(np.flatnonzero(term)[0])
    assert info["_scores"][i] and not info["action_mask"][i].any()
    _obs, reward, term, trunc, info = env.step(np.zeros(2, dtype=np.int64))
    assert reward[i] == 0.0 and not term[i] and not trunc[i]  # the reset step
    assert info["action_mask"][i].any()  # a fresh game, with legal actions


def test_same_seeds_same_trajectories_and_the_same_as_sync_vector_env() -> None:
    ours = run(DecklabVectorEnv(GAME, num_envs=N), seed=7, steps=150)
    again = run(DecklabVectorEnv(GAME, num_envs=N), seed=7, steps=150)
    assert any(step[2].any() for step in ours[1:]), "no episode ended: autoreset untested"
    assert data_equivalence(ours, again, exact=True)
    sync = SyncVectorEnv([lambda: dg.DecklabGymEnv(GAME) for _ in range(N)])
    theirs = run(sync, seed=7, steps=150)
    assert data_equivalence(ours, theirs, exact=True)
    other = run(DecklabVectorEnv(GAME, num_envs=N), seed=8, steps=5)
    assert not data_equivalence(ours[:6], other)


def test_returned_arrays_are_not_reused() -> None:
    env = DecklabVectorEnv(GAME, num_envs=2)
    first, info = env.reset(seed=0)
    kept = {k: v.copy() for k, v in first.items()}
    env.step(first_legal(info["action_mask"]))
    assert data_equivalence(first, kept, exact=True)


def test_render_gives_every_tables_frame() -> None:
    env = DecklabVectorEnv(GAME, num_envs=2, render_mode="rgb_array")
    env.reset(seed=0)
    frames = env.render()
    assert frames is not None and len(frames) == 2
    assert all(f.ndim == 3 and f.shape[2] == 3 for f in frames)
    assert DecklabVectorEnv(GAME, num_envs=2).render() is None
