"""A learner at a multiplayer table: self-play through a callback, fixed decklab bots,
the learner's reward and view, seats that rotate, and Gymnasium's checker."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is part of decklab[rl]")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from decklab.interop.opponents import SeatEnv, fixed_opponents_env, self_play_env  # noqa: E402


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def play(env: SeatEnv, seed: int | None) -> tuple[int, float, dict[str, Any], list[int]]:
    """One episode with the first legal action; (steps, reward, last info, seats seen)."""
    obs, info = env.reset(seed=seed)
    seats = [info["seat"]]
    steps, done, reward = 0, False, 0.0
    while not done:
        assert env.state.to_act() and env.learner in env.state.to_act()  # only its turns
        assert obs["action_mask"].any()
        action = int(np.flatnonzero(env.action_masks())[0])
        obs, reward, done, _, info = env.step(action)
        seats.append(info["seat"])
        steps += 1
        assert steps < 5000
    return steps, reward, info, seats


def test_self_play_plays_every_seat_with_the_callback() -> None:
    calls: list[int] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append(int(mask.sum()))
        return first_legal(observation, mask)

    env = self_play_env("facade", policy, num_players=2)
    learned = set()
    for seed in (0, None):  # a seeded reset, then the next episode
        steps, reward, info, seats = play(env, seed)
        assert steps > 0 and 0.0 <= reward <= 1.0 and "scores" in info
        assert len(set(seats)) == 1
        learned.add(seats[0])
    assert learned == {0, 1}  # rotate: each seat once in two episodes
    assert calls and all(n >= 1 for n in calls)  # the callback got legal masks


def test_fixed_opponents_are_decklab_agents_and_the_reward_is_the_learners() -> None:
    env = fixed_opponents_env("facade", "greedy", num_players=2, seat=1)
    _steps, reward, info, seats = play(env, seed=4)
    assert set(seats) == {1}
    assert reward == env.table.returns(env.state)[1]
    assert info["winners"] is not None


def test_simultaneous_rounds_let_the_others_choose_first() -> None:
    env = fixed_opponents_env("corporation", ["greedy", "random", "greedy"], num_players=4)
    steps, _reward, info, _ = play(env, seed=2)
    assert steps > 0 and "scores" in info


def test_the_same_seed_gives_the_same_game() -> None:
    a = play(fixed_opponents_env("facade", "greedy", num_players=2, seat=0), seed=9)
    b = play(fixed_opponents_env("facade", "greedy", num_players=2, seat=0), seed=9)
    assert a[:2] == b[:2]


def test_an_illegal_action_ends_the_episode_with_minus_one() -> None:
    env = fixed_opponents_env("facade", "random", num_players=2, seat=0)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -1.0 and info["illegal_action"]


def test_bad_configurations_are_refused() -> None:
    with pytest.raises(ValueError, match="opponents"):
        SeatEnv("facade", ["greedy", "greedy"], num_players=2)
    with pytest.raises(ValueError, match="seat"):
        SeatEnv("facade", "greedy", num_players=2, seat=5)


def test_gymnasium_check_env_passes() -> None:
    env = fixed_opponents_env("facade", "greedy", num_players=2, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)  # it has no spec to remake it by
    text = env.render()
    assert isinstance(text, str) and text


def test_a_callback_that_plays_illegally_is_refused_and_named() -> None:
    def bad(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    env = self_play_env("facade", bad, num_players=2, seat=0)
    with pytest.raises(ValueError, match="seat 1 chose illegal"):
        env.reset(seed=0)
        for _ in range(200):  # until seat 1's first turn
            env.step(int(np.flatnonzero(env.action_masks())[0]))
