"""The Gymnasium environment of every solo game: Gymnasium's own checker, the mask in
the observation and in ``info``, rewards and illegal actions."""

from __future__ import annotations

import warnings

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
