"""The Gymnasium environment of every solo game: Gymnasium's own checker, the mask in
the observation and in ``info``, rewards and illegal actions."""

from __future__ import annotations

import importlib
import os
import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is part of decklab[rl]")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from decklab.engine.registry import game_names, get_game  # noqa: E402
from decklab.interop import gymnasium as dg  # noqa: E402

SOLO = [g for g in game_names() if get_game(g).info.min_players == 1]


def test_every_solo_game_is_registered_by_id() -> None:
    assert SOLO, "no solo game to test"
    assert [dg.env_id(g) for g in SOLO] == dg.ENV_IDS
    for ident in dg.ENV_IDS:
        assert ident in gymnasium.registry
        assert ident.startswith("decklab/") and ident.endswith("-v0")


@pytest.mark.parametrize("game", SOLO)
def test_gymnasium_check_env_passes(game: str) -> None:
    env = gymnasium.make(dg.env_id(game), render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning from the checker is a failure too
        check_env(env.unwrapped)


@pytest.mark.parametrize("game", SOLO)
def test_an_episode_ends_with_the_normalised_score(game: str) -> None:
    env = gymnasium.make(dg.env_id(game)).unwrapped
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    total, steps, done = 0.0, 0, False
    while not done:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
        steps += 1
    state = env.state
    assert state.is_terminal()
    assert total == pytest.approx(state.utilities()[0])
    assert info["scores"] == state.result()["scores"]
    assert not obs["action_mask"].any(), "nothing is legal once the game is over"
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("game", SOLO)
def test_same_seed_same_episode(game: str) -> None:
    a, b = gymnasium.make(dg.env_id(game)).unwrapped, gymnasium.make(dg.env_id(game)).unwrapped
    oa, _ = a.reset(seed=11)
    ob, _ = b.reset(seed=11)
    assert np.array_equal(oa["observation"], ob["observation"])
    assert a.state.history == b.state.history and a.state.view(-2) == b.state.view(-2)


@pytest.mark.parametrize("game", SOLO)
def test_an_illegal_action_ends_the_episode_with_minus_one(game: str) -> None:
    env = gymnasium.make(dg.env_id(game)).unwrapped
    _, info = env.reset(seed=1)
    before = list(env.state.history)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert "cannot play" not in info["why"] and info["why"]
    assert env.state.history == before, "the illegal action changed the game"


@pytest.mark.parametrize("game", SOLO)
def test_action_masks_are_the_legal_actions(game: str) -> None:
    env = gymnasium.make(dg.env_id(game)).unwrapped
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(20):
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and np.array_equal(masks, info["action_mask"] == 1)
        assert sorted(np.flatnonzero(masks)) == sorted(env._legal)
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(masks))))
        if done:
            break


@pytest.mark.parametrize("game", SOLO)
def test_the_mask_can_stay_out_of_the_observation(game: str) -> None:
    env = gymnasium.make(dg.env_id(game), mask_in_observation=False)
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    obs, info = env.reset(seed=2)
    assert isinstance(obs, np.ndarray) and obs.shape == env.observation_space.shape
    assert info["action_mask"].any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize("game", SOLO)
def test_rgb_array_draws_the_table_from_its_layout(game: str) -> None:
    env = gymnasium.make(dg.env_id(game), render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    assert first.ndim == 3 and first.shape[2] == 3
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 3, "cards are drawn, not a blank"
    masks = env.unwrapped.action_masks()
    env.step(int(np.flatnonzero(masks)[0]))
    after = env.render()
    assert after.shape == first.shape and not np.array_equal(after, first)


def test_an_unknown_render_mode_is_accepted_with_a_warning() -> None:
    with pytest.warns(UserWarning, match="render_mode 'rgb_array_list_of_dreams'"):
        env = dg.DecklabGymEnv(SOLO[0], render_mode="rgb_array_list_of_dreams")
    env.reset(seed=0)
    assert env.render() is None


def test_a_vector_env_of_two_with_rgb_array_as_sb3_makes_it() -> None:
    """What SB3's ``make_vec_env("decklab/cabin-v0", n_envs=2)`` does: ``gym.make`` with
    ``render_mode="rgb_array"``, two copies stepped together."""
    ident = dg.env_id(SOLO[0])
    vec = gymnasium.make_vec(ident, num_envs=2, vectorization_mode="sync", render_mode="rgb_array")
    obs, info = vec.reset(seed=0)
    assert obs["observation"].shape[0] == 2
    masks = info["action_mask"]
    actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    vec.step(actions)
    frames = vec.render()
    assert frames is not None and len(frames) == 2
    vec.close()


def _sb3_or_skip(module: str) -> Any:
    """SB3 and sb3-contrib are the ``decklab[sb3]`` extra (they pull torch): the test
    skips without them, saying how to run it, except under ``make test-sb3`` (and so in
    CI), where a missing extra is a failure."""
    if os.environ.get("DECKLAB_REQUIRE_SB3") == "1":
        return importlib.import_module(module)
    return pytest.importorskip(module, reason="needs decklab[sb3] (torch): make test-sb3 runs it")


def test_sb3_maskable_ppo_learns_through_make_vec_env() -> None:
    _sb3_or_skip("torch")
    sb3_contrib = _sb3_or_skip("sb3_contrib")
    env_util = _sb3_or_skip("stable_baselines3.common.env_util")
    vec = env_util.make_vec_env(dg.env_id(SOLO[0]), n_envs=2, seed=0)
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", vec, n_steps=32, batch_size=32, seed=0)
    model.learn(64)
    obs = vec.reset()
    masks = np.array(vec.env_method("action_masks"))
    action, _ = model.predict(obs, action_masks=masks)
    assert all(masks[i][a] for i, a in enumerate(action)), "the policy keeps to the mask"
