"""PettingZoo AEC environments: PettingZoo's own API and seed tests for every game at
every player count, end-of-game rewards, illegal moves, simultaneous rounds."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from interop_cases import GAME_COUNTS, IDS, SEQUENTIAL

pytest.importorskip("pettingzoo", reason="PettingZoo is part of decklab[rl]")

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from decklab.engine.errors import IllegalAction
from decklab.engine.registry import game_names, get_game
from decklab.interop import pettingzoo as dz


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_pettingzoo_api_and_seed_tests_pass(game: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its naming and dict-observation advice
        api_test(dz.env(game, players), num_cycles=25)
        seed_test(lambda: dz.env(game, players), num_cycles=25)


def test_env_names_are_versioned_registry_names() -> None:
    names = dz.env_names()
    assert sorted(names.values()) == sorted(game_names())
    for name, game in names.items():
        assert name == f"{game.replace('-', '_')}_v{get_game(game).info.version - 1}"
        assert dz.make(name).metadata["name"] == name
    with pytest.raises(KeyError, match="no environment"):
        dz.make("chess_v0")


def _play_out(env: dz.DecklabAEC, rng: random.Random) -> None:
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
        for other in env.agents:  # nobody else has a move while this agent acts
            if other != env.agent_selection:
                assert not env.observe(other)["action_mask"].any()


@pytest.mark.parametrize("game", game_names())
def test_rewards_at_the_end_and_scores_in_infos(game: str) -> None:
    env = dz.raw_env(game)
    env.reset(seed=4)
    ended = []
    rewards: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    rng = random.Random(4)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent] += reward
        if term or trunc:
            assert info["scores"] == env.state.result()["scores"]
            ended.append(agent)
            env.step(None)
            continue
        assert reward == 0.0, "no reward before the end"
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    state = env.state
    assert state.is_terminal() and sorted(ended) == sorted(env.possible_agents)
    want = state.utilities()
    assert [rewards[a] for a in env.possible_agents] == pytest.approx(want)
    assert env.render() == state.render(None)


@pytest.mark.parametrize("game", SEQUENTIAL)
def test_an_illegal_action_ends_the_game_as_in_the_classic_envs(game: str) -> None:
    env = dz.env(game)
    env.reset(seed=1)
    agent = env.agent_selection
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1
    assert all(r == 0 for a, r in env.rewards.items() if a != agent)


@pytest.mark.parametrize("game", game_names())
def test_the_raw_env_refuses_an_illegal_action_and_changes_nothing(game: str) -> None:
    env = dz.raw_env(game)
    env.reset(seed=2)
    before = (list(env.state.history), env.agent_selection)
    mask = env.observe(env.agent_selection)["action_mask"]
    never = [*np.flatnonzero(mask == 0).tolist(), len(mask)]  # out of range, if all legal
    with pytest.raises(IllegalAction, match="cannot play"):
        env.step(never[0])
    assert (list(env.state.history), env.agent_selection) == before


def test_simultaneous_rounds_hide_choices_until_the_reveal() -> None:
    """P2: seats choose one after another inside the round; none sees another's choice,
    and the round resolves only after the last (generic: any game with several to act)."""
    game = next(g for g in game_names() if get_game(g).info.simultaneous)
    envs = [dz.raw_env(game), dz.raw_env(game)]
    for env in envs:
        env.reset(seed=9)
    n = len(envs[0].possible_agents)
    assert len(envs[0].state.to_act()) == n, "a simultaneous round starts with every seat"
    first = envs[0].agent_selection
    choices = np.flatnonzero(envs[0].observe(first)["action_mask"]).tolist()
    for env, choice in zip(envs, choices[:2], strict=True):
        env.step(choice)  # the two envs differ only in the first seat's choice
    rounds_before = len(envs[0].state.history)
    second = envs[0].agent_selection
    assert second != first and envs[1].agent_selection == second
    a, b = (env.observe(second) for env in envs)
    assert np.array_equal(a["observation"], b["observation"])
    assert np.array_equal(a["action_mask"], b["action_mask"])
    # the others choose; only after the last does the round resolve for everyone
    for _ in range(n - 1):
        env = envs[0]
        assert env.state.to_act(), "the round resolved before its last choice"
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert len(envs[0].state.history) == rounds_before + n - 1
    assert len(envs[0].state.to_act()) == n, "a new round starts once all have chosen"


@pytest.mark.parametrize("game", game_names())
def test_only_the_agent_to_act_has_a_mask(game: str) -> None:
    env = dz.raw_env(game)
    env.reset(seed=3)
    _play_out(env, random.Random(3))


SIMULTANEOUS = [g for g in game_names() if get_game(g).info.simultaneous]


@pytest.mark.parametrize("game", game_names())
def test_parallel_api_and_seed_tests_pass(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(dz.parallel_env(game), num_cycles=300)
        parallel_seed_test(lambda: dz.parallel_env(game), num_cycles=50)


@pytest.mark.parametrize("game", SIMULTANEOUS)
def test_parallel_env_sets_every_acting_seats_mask_in_a_simultaneous_round(game: str) -> None:
    env = dz.parallel_env(game)
    obs, _ = env.reset(seed=2)
    acting = [env.possible_agents[s] for s in env.state.to_act()]
    assert len(acting) > 1
    for agent in acting:
        assert obs[agent]["action_mask"].any(), f"{agent} is to act but has no mask"
    rng = random.Random(2)
    rounds = 0
    while env.agents:
        actions = {
            a: rng.choice(np.flatnonzero(o["action_mask"]).tolist())
            for a, o in obs.items()
            if o["action_mask"].any()
        }
        before = len(env.state.history)
        obs, rewards, term, _, infos = env.step(actions)
        assert len(env.state.history) - before >= len(actions), "every choice applied"
        rounds += 1
    assert all(term.values()) and sum(rewards.values()) == pytest.approx(1.0)
    assert "scores" in next(iter(infos.values()))


def test_parallel_env_ends_the_game_on_an_illegal_action() -> None:
    game = SIMULTANEOUS[0]
    env = dz.parallel_env(game)
    obs, _ = env.reset(seed=1)
    acting = [a for a, o in obs.items() if o["action_mask"].any()]
    bad = acting[-1]  # every seat but the last chooses; the last sends nothing
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in acting[:-1]}
    history = list(env.state.history)
    _, rewards, term, _, infos = env.step(actions)
    assert env.state.history == history, "nothing applied"
    assert rewards[bad] == -1.0 and all(term.values()) and infos[bad]["illegal_action"]
    assert not env.agents


@pytest.mark.parametrize("make", [dz.env, dz.parallel_env])
def test_pettingzoo_agent_names_and_max_cycles(make: object) -> None:
    game = SEQUENTIAL[0]
    env: object = make(game, 2, agent_names="pettingzoo", max_cycles=3)  # type: ignore[operator]
    if isinstance(env, dz.DecklabParallel):
        obs, _ = env.reset(seed=0)
        assert list(obs) == ["player_0", "player_1"]
        steps = 0
        while env.agents:
            actions = {
                a: int(np.flatnonzero(o["action_mask"])[0])
                for a, o in obs.items()
                if o["action_mask"].any()
            }
            obs, _, term, trunc, _ = env.step(actions)
            steps += 1
        assert steps == 3 and all(trunc.values()) and not any(term.values())
    else:
        aec: Any = env
        aec.reset(seed=0)
        assert aec.possible_agents == ["player_0", "player_1"]
        steps = 0
        for _agent in aec.agent_iter():
            o, _, term, trunc, _ = aec.last()
            if term or trunc:
                assert trunc and not term
                aec.step(None)
                continue
            aec.step(int(np.flatnonzero(o["action_mask"])[0]))
            steps += 1
        assert steps == 3
    with pytest.raises(ValueError, match="agent_names"):
        make(game, 2, agent_names="bots")  # type: ignore[operator]
