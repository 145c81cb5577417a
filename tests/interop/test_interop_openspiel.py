"""OpenSpiel python games: game types, a random-simulation check in the manner of
``pyspiel.random_sim_test`` (legal actions, serialization, information states
consistent with each seat's view), and full games by OpenSpiel's ISMCTSBot."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest
from interop_cases import GAME_COUNTS, GAMES, IDS, SEQUENTIAL

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is part of decklab[rl]")

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

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
        T.ChanceMode.EXPLICIT_STOCHASTIC
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
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes and sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert [a for a, _ in outcomes] == state.legal_actions()
        assert len(outcomes) <= state.get_game().max_chance_outcomes()
        return
    dstate = state.dstate
    assert dstate is not None
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
        pyspiel.random_sim_test(sgame, num_sims=1, serialize=True, verbose=False)
    rng = random.Random(players)
    state = sgame.new_initial_state()
    moves = 0
    while True:
        _check_node(state, views=moves % 6 == 0 or state.is_terminal())
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
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


def _play(state: openspiel.DecklabSpielState, rng: random.Random, until: Any) -> None:
    """Chance by ``rng``; every seat takes its first legal action; stop when ``until``."""
    while not state.is_terminal() and not until(state):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        elif state.is_simultaneous_node():
            state.apply_actions(
                [(state.legal_actions(p) or [0])[0] for p in range(state.num_players())]
            )
        else:
            state.apply_action(state.legal_actions()[0])


CHANCE_GAMES = [g for g in GAMES if openspiel.Table(g).hooks.has_chance]


@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_clones_given_the_same_actions_draw_their_own_chance(game: str) -> None:
    """A clone holds no hidden future: two clones of the dealt table, given the same
    actions, draw different chance outcomes when chance comes (sampled by each), and
    two clones of the undealt table get different deals."""
    sgame = pyspiel.load_game(openspiel.short_name(game), {"seed": 1})
    start = sgame.new_initial_state()
    assert start.is_chance_node(), "the deal is dealt by chance nodes"
    deals = set()
    for k in range(4):
        twin = start.clone()
        _play(twin, random.Random(k), lambda s: not s.is_chance_node())
        deals.add(json.dumps(twin.dstate.view(ALL), sort_keys=True))
    assert len(deals) > 1
    dealt = start.clone()
    _play(dealt, random.Random(9), lambda s: not s.is_chance_node())
    a, b = dealt.clone(), dealt.clone()
    first_draw = lambda s: s.is_chance_node()  # noqa: E731
    _play(a, random.Random(1), first_draw)
    _play(b, random.Random(2), first_draw)
    if not a.is_chance_node():
        return  # the game draws nothing after the deal (its chance is all in the deal)
    assert str(a) == str(b) and a.history() == b.history(), "the same actions so far"
    ends = set()
    for k in range(6):
        c = a.clone()
        _play(c, random.Random(100 + k), lambda s: not s.is_chance_node())
        ends.add(json.dumps(c.dstate.view(ALL), sort_keys=True))
    assert len(ends) > 1, "the draw after the same actions is not fixed in advance"


@pytest.mark.parametrize("game", GAMES)
def test_serialize_game_and_state_round_trips(game: str) -> None:
    sgame = pyspiel.load_game(openspiel.short_name(game))
    rng = random.Random(4)
    state = sgame.new_initial_state()
    for stop in (5, 60, 10_000):
        _play(state, rng, lambda s, stop=stop: len(s.history()) >= stop)
        text = pyspiel.serialize_game_and_state(sgame, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(sgame)
        assert state2.history() == state.history()
        assert str(state2) == str(state)
        assert state2.is_chance_node() == state.is_chance_node()
        if state.dstate is not None:
            assert state2.dstate.view(ALL) == state.dstate.view(ALL)
    assert state.is_terminal()


def _bot(kind: str, sgame: Any, seat: int) -> Any:
    rs = np.random.RandomState(seat)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    if kind == "mcts":
        return mcts.MCTSBot(sgame, 2.0, 4, evaluator, random_state=rs)
    return openspiel.ismcts_bot(sgame, evaluator, 2.0, 4, random_state=rs)


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
@pytest.mark.parametrize("game", GAMES)
def test_search_bots_play_random_through_evaluate_bots(game: str, kind: str) -> None:
    """OpenSpiel's MCTSBot and ISMCTSBot (with decklab's ``restart_at`` shim) against
    random bots, every game; a simultaneous game through ``turn_based``."""
    simultaneous = get_game(game).info.simultaneous
    sgame = pyspiel.load_game(openspiel.short_name(game), {"turn_based": simultaneous})
    n = sgame.num_players()
    bots = [_bot(kind, sgame, 0)] + [
        uniform_random.UniformRandomBot(p, np.random.RandomState(p)) for p in range(1, n)
    ]
    returns = evaluate_bots.evaluate_bots(sgame.new_initial_state(), bots, np.random.RandomState(7))
    assert len(returns) == n and all(0.0 <= r <= 1.0 for r in returns)
    if n > 1:
        assert sum(returns) == pytest.approx(1.0)


def test_mcts_refuses_a_simultaneous_game_unless_turn_based() -> None:
    game = next(g for g in GAMES if get_game(g).info.simultaneous)
    sgame = pyspiel.load_game(openspiel.short_name(game))
    assert sgame.get_type().dynamics == T.Dynamics.SIMULTANEOUS
    turns = pyspiel.load_game(openspiel.short_name(game), {"turn_based": True})
    assert turns.get_type().dynamics == T.Dynamics.SEQUENTIAL
    state = turns.new_initial_state()
    assert not state.is_simultaneous_node() and state.current_player() == 0
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1, "the next seat of the round chooses next"
    sample = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(1) == state.information_state_string(1)


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
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.dstate.is_terminal()
    assert state.returns() == pytest.approx(state.dstate.utilities())


@pytest.mark.parametrize("game", SEQUENTIAL)
def test_the_seed_parameter_makes_resampling_reproducible(game: str) -> None:
    name = openspiel.short_name(game)
    a, b = pyspiel.load_game(name, {"seed": 5}), pyspiel.load_game(name, {"seed": 5})
    sa, sb = a.new_initial_state(), b.new_initial_state()
    _play(sa, random.Random(1), lambda s: not s.is_chance_node())
    _play(sb, random.Random(1), lambda s: not s.is_chance_node())
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    p = sa.current_player()
    ra = sa.resample_from_infostate(p, sampler)
    rb = sb.resample_from_infostate(p, sampler)
    assert ra.dstate.view(ALL) == rb.dstate.view(ALL)
    assert ra.information_state_string(p) == sa.information_state_string(p)
