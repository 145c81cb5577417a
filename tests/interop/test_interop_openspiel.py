"""OpenSpiel python games: game types, a random-simulation check in the manner of
``pyspiel.random_sim_test`` (legal actions, serialization, information states
consistent with each seat's view), and full games by OpenSpiel's ISMCTSBot."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from interop_cases import GAME_COUNTS, GAMES, IDS, SEQUENTIAL

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is part of decklab[rl]")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from decklab.engine.registry import get_game  # noqa: E402
from decklab.engine.state import ALL, seat_name  # noqa: E402
from decklab.interop import openspiel  # noqa: E402

T = pyspiel.GameType


def test_importing_registers_every_game() -> None:
    registered = set(pyspiel.registered_names())
    for game in GAMES:
        assert f"python_decklab_{game.replace('-', '_')}" in registered
    assert [openspiel.short_name(g) for g in GAMES] == openspiel.GAME_NAMES


@pytest.mark.parametrize("game", GAMES)
def test_game_type_matches_the_game(game: str) -> None:
    info = get_game(game).info
    sgame = pyspiel.load_game(openspiel.short_name(game))
    gt = sgame.get_type()
    assert gt.dynamics == (T.Dynamics.SIMULTANEOUS if info.simultaneous else T.Dynamics.SEQUENTIAL)
    assert gt.chance_mode == (
        T.ChanceMode.SAMPLED_STOCHASTIC
        if sgame.table.hooks.has_chance
        else T.ChanceMode.DETERMINISTIC
    )
    assert gt.information == (
        T.Information.IMPERFECT_INFORMATION
        if info.hidden_information
        else T.Information.PERFECT_INFORMATION
    )
    assert gt.reward_model == T.RewardModel.TERMINAL
    assert (gt.min_num_players, gt.max_num_players) == (info.min_players, info.max_players)
    assert sgame.num_players() == info.default_players
    assert sgame.num_distinct_actions() == sgame.table.num_actions
    assert sgame.observation_tensor_size() == sgame.table.obs_size
    assert sgame.information_state_tensor_size() == sgame.table.obs_size
    if info.min_players > 1:
        assert gt.utility == T.Utility.CONSTANT_SUM and sgame.utility_sum() == 1.0


def test_a_bad_option_is_refused_clearly() -> None:
    with pytest.raises(Exception, match="has no option"):
        pyspiel.load_game(openspiel.short_name(GAMES[0]), {"options": "nonsense=1"})


def _view_json(state: openspiel.DecklabSpielState, seat: int) -> str:
    return json.dumps(state.dstate.view(seat), sort_keys=True, separators=(",", ":"))


def _check_node(state: openspiel.DecklabSpielState, views: bool) -> None:
    table = state.table
    dstate = state.dstate
    n = table.num_players
    for seat in range(n) if views else ():
        view = _view_json(state, seat)
        assert state.observation_string(seat) == view
        info = state.information_state_string(seat)
        assert info.startswith(f"{seat_name(seat)} ") and info.endswith(f"view:{view}")
        assert np.array_equal(
            np.asarray(state.observation_tensor(seat), np.float32),
            table.observation(dstate, seat),
        )
    if state.is_terminal():
        returns = state.returns()
        assert all(0.0 <= r <= 1.0 for r in returns)
        if n > 1:
            assert sum(returns) == pytest.approx(1.0)
        return
    players = list(dstate.to_act()) if state.is_simultaneous_node() else [state.current_player()]
    for p in players:
        legal = state.legal_actions(p)
        assert legal == sorted(set(legal)) and legal, "legal actions: sorted, distinct, some"
        assert legal == sorted(table.legal(dstate, p))
        assert all(0 <= a < table.num_actions for a in legal)
        mask = state.legal_actions_mask(p)
        assert [i for i, m in enumerate(mask) if m] == legal
        by_index = table.legal(dstate, p)
        for a in legal[:5]:
            text = dstate.action_to_string(p, by_index[a])
            assert state.action_to_string(p, a) == f"{seat_name(p)} {text}"


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_random_simulation(game: str, players: int) -> None:
    sgame = pyspiel.load_game(openspiel.short_name(game), {"players": players, "seed": players})
    if players == get_game(game).info.default_players:  # OpenSpiel's own, as well
        pyspiel.random_sim_test(sgame, num_sims=1, serialize=False, verbose=False)
    rng = random.Random(players)
    state = sgame.new_initial_state()
    moves = 0
    while True:
        _check_node(state, views=moves % 6 == 0 or state.is_terminal())
        if state.is_terminal():
            break
        if moves % 15 == 0:  # serialization round trip, then both go on the same way
            copy = sgame.deserialize_state(state.serialize())
            assert copy.dstate.view(ALL) == state.dstate.view(ALL)
            assert copy.dstate.history == state.dstate.history
            twin = state.clone()
            twin_before = twin.dstate.view(ALL)
            if state.is_simultaneous_node():
                joint = [rng.choice(state.legal_actions(p)) for p in range(players)]
                copy.apply_actions(joint)
            else:
                a = rng.choice(state.legal_actions())
                copy.apply_action(a)
            assert twin.dstate.view(ALL) == twin_before, "a clone shares the original's state"
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    assert moves <= sgame.max_game_length()


@pytest.mark.parametrize("game", SEQUENTIAL)
def test_ismcts_bot_plays_a_full_game(game: str) -> None:
    """OpenSpiel's own ISMCTSBot, every seat, resampling through ``determinize``."""
    sgame = pyspiel.load_game(openspiel.short_name(game), {"seed": 3})
    bots = [
        ismcts.ISMCTSBot(
            sgame,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(seat)),
            2.0,
            6,
            random_state=np.random.RandomState(seat),
        )
        for seat in range(sgame.num_players())
    ]
    state = sgame.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.dstate.is_terminal()
    assert state.returns() == pytest.approx(state.dstate.utilities())


@pytest.mark.parametrize("game", SEQUENTIAL)
def test_the_seed_parameter_makes_deals_reproducible(game: str) -> None:
    name = openspiel.short_name(game)
    a, b = pyspiel.load_game(name, {"seed": 5}), pyspiel.load_game(name, {"seed": 5})
    for _ in range(2):
        sa, sb = a.new_initial_state(), b.new_initial_state()
        assert sa.dstate.view(ALL) == sb.dstate.view(ALL)
    # resampling for search does not shift the sequence of deals
    s = a.new_initial_state()  # the third deal of each
    b.new_initial_state()
    s.resample_from_infostate(s.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert a.new_initial_state().dstate.view(ALL) == b.new_initial_state().dstate.view(ALL)
