"""The ``fast`` agent: fair, reproducible, legal everywhere, and ahead of ``greedy``."""

from __future__ import annotations

import random

import pytest

from decklab.bots import agent_names, is_fair, make_agent
from decklab.bots.fast import FastAgent, FastSettings
from decklab.engine.checks import canonical
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import ALL, GameState
from decklab.lab.arena import run_arena


def _positions(name: str, seed: int, count: int, players: int | None = None) -> list[GameState]:
    """``count`` states along one random game, each a real decision (two or more moves)."""
    cls = get_game(name)
    rng = random.Random(seed)
    state = cls.new(players or cls.info.default_players, seed=seed)
    seen: list[GameState] = []
    while not state.is_terminal():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            seen.append(state.clone())
        state.apply(seat, rng.choice(legal))
    step = max(1, len(seen) // count)
    return seen[::step][:count]


def _twin(state: GameState, seat: int, seed: int) -> GameState:
    """A state the seat cannot tell from ``state`` but whose hidden cards differ."""
    rng = random.Random(seed)
    for _ in range(100):
        other = state.determinize(seat, rng)
        if canonical(other.view(ALL)) != canonical(state.view(ALL)):
            break
    assert canonical(other.view(ALL)) != canonical(state.view(ALL)), "nothing hidden here"
    assert canonical(other.view(seat)) == canonical(state.view(seat))
    assert other.legal_actions(seat) == state.legal_actions(seat)
    return other


def test_fast_is_registered_fair_and_listed_with_its_parameters() -> None:
    assert is_fair("fast") and is_fair("fast:dets=2,topk=2,depth=1")
    assert make_agent("fast").fair
    assert isinstance(make_agent("fast:seed=3"), FastAgent)
    line = agent_names(include_unfair=False)["fast"]
    for param in ("dets=", "topk=", "depth=", "samples=", "z="):
        assert param in line


@pytest.mark.parametrize("name", game_names())
def test_fast_never_plays_an_illegal_move(name: str) -> None:
    cls = get_game(name)
    counts = sorted({cls.info.min_players, cls.info.default_players, cls.info.max_players})
    for players in counts[:2]:
        for i, state in enumerate(_positions(name, 40 + players, 6, players)):
            for seat in state.to_act():
                hint = make_agent(f"fast:seed={i}").hint(state, seat)
                assert hint.action in state.legal_actions(seat)
                assert hint.text == state.action_to_string(seat, hint.action)
                assert hint.reason.startswith(("fast", "the only"))


@pytest.mark.parametrize("name", game_names())
def test_the_same_seed_gives_the_same_choice_and_figures(name: str) -> None:
    for state in _positions(name, 7, 3):
        seat = state.to_act()[0]
        first = make_agent("fast:seed=9").hint(state, seat)
        again = make_agent("fast:seed=9").hint(state.clone(), seat)
        assert first == again
        agent = make_agent("fast:seed=1")
        agent.hint(state, seat)
        agent.reseed(9)
        assert agent.hint(state, seat) == first  # reseeding is a fresh agent


@pytest.mark.parametrize("name", game_names())
def test_fast_chooses_the_same_whatever_the_hidden_cards(name: str) -> None:
    """Two true states that differ only in what the seat cannot see: the same hint."""
    checked = 0
    for i, state in enumerate(_positions(name, 12, 6)):
        seat = state.to_act()[0]
        try:
            twin = _twin(state, seat, i)
        except AssertionError:
            continue  # a position with nothing hidden from this seat proves nothing
        first = make_agent("fast:seed=4").hint(state, seat)
        second = make_agent("fast:seed=4").hint(twin, seat)
        assert first == second
        checked += 1
    assert checked >= 2


def test_fast_asks_the_games_expert_on_few_deals_where_there_is_one() -> None:
    cabin = get_game("cabin").new(1, seed=4)
    while len(cabin.legal_actions(0)) < 2:
        cabin.apply(0, cabin.legal_actions(0)[0])
    hint = make_agent("fast:seed=2,samples=2").hint(cabin, 0)
    assert "own judge on 2 sampled deals" in hint.reason and hint.text in hint.values


def test_a_move_needs_evidence_to_replace_the_games_favourite() -> None:
    agent = FastAgent(seed=0, z=2.0)
    noisy = {1: [0.5, 0.5, 0.5, 0.5], 2: [0.9, 0.1, 0.9, 0.2]}  # better mean, mostly luck
    clear = {1: [0.5, 0.5, 0.5, 0.5], 2: [0.6, 0.62, 0.61, 0.6]}
    assert agent.pick([1, 2], noisy) == 1
    assert agent.pick([1, 2], clear) == 2
    assert FastAgent(seed=0).pick([1, 2], noisy) == 2  # z=0: the best mean


def test_fast_beats_greedy_in_a_small_duplicate_arena() -> None:
    report = run_arena("facade", ["fast", "greedy"], games=40, seed=3, progress=False)
    fast = report.per_agent[0]
    # Seen with this seed: 77.5% (62.5–87.7%); equals would win 50%, the margin leaves room.
    assert fast.games == 40 and fast.win_rate >= 0.65, fast.win_rate
    assert fast.win_low > 0.5


def test_at_four_corporation_players_fast_breaks_the_shared_corporation() -> None:
    """Four greedy seats share every game (one Corporation of all four, 40 points each).

    With one own move and greedy after it ``fast`` joined them (exactly 25% in every
    game); the game's settings give it a two-move plan at four players (play alone,
    then spoil the others' reward), and it wins outright.
    """
    state = get_game("corporation").new(4, seed=3)
    agents = [make_agent("fast:seed=1")] + [make_agent(f"greedy:seed={i}") for i in (2, 3, 4)]
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, agents[seat].choose(state, seat))
    scores = state.scores()
    assert scores[0] > max(scores[1:]), scores


def test_a_parameter_in_the_spec_wins_over_the_games_settings() -> None:
    state = get_game("corporation").new(4, seed=3)
    tuned, plain = make_agent("fast:seed=1"), make_agent("fast:seed=1,plan=1,depth=4,dets=4")
    assert isinstance(tuned, FastAgent) and isinstance(plain, FastAgent)
    tuned.choose(state, 0)
    plain.choose(state, 0)
    assert tuned.settings == FastSettings(plan=2, depth=8, dets=1)
    assert plain.settings == FastSettings()
    five = get_game("corporation").new(5, seed=3)
    tuned.choose(five, 0)  # another table size: the defaults again
    assert tuned.settings == FastSettings()
    given = make_agent("fast:seed=1,depth=6,z=0.5")  # one given: the game's others still count
    assert isinstance(given, FastAgent) and given.settings == FastSettings(depth=6, z=0.5)
    given.choose(state, 0)
    assert given.settings == FastSettings(plan=2, depth=6, dets=1, z=0.5)


def test_choose_and_hint_agree() -> None:
    """``choose`` skips the words but not the work: the same move as ``hint``."""
    for name in game_names():
        for state in _positions(name, 21, 3):
            seat = state.to_act()[0]
            hint = make_agent("fast:seed=5").hint(state, seat)
            assert make_agent("fast:seed=5").choose(state, seat) == hint.action


def test_the_cabins_cheaper_judge_keeps_to_the_experts_values() -> None:
    """``games/cabin/fast.py`` judges at most WIDTH actions, each as the expert would.

    Pruning drops only moves another one dominates, so a judged action's value is
    one of the expert's on the same sampled deal, never below the expert's best.
    """
    from decklab.games.cabin import expert, fast

    checked = 0
    for seed in range(6):
        for i, state in enumerate(_positions("cabin", 60 + seed, 8)):
            full = expert.action_values(state, 0, random.Random(i), 1)
            cheap = fast.action_values(state, 0, random.Random(i), 1)
            assert cheap and set(cheap) <= set(full) and len(cheap) <= fast.WIDTH
            if len(cheap) > 1:  # one action left standing is played unjudged
                for action, value in cheap.items():
                    assert value >= min(full.values())
                    assert value >= full[action]  # its dominated moves may be gone
                checked += 1
    assert checked >= 10
