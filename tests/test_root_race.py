"""The race at the root (``ismcts:root=race``): moves compared on shared deals, none
dropped unless clearly worse (issue 20: sequential halving dropped a move for good
after a few deals, and the expert then played one whose mean was below it). ``cheat``
takes the same option (the same code, in ``SearchAgent``), racing on the true state."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from decklab.bots import make_agent
from decklab.bots.search import RACE_MIN_DEALS, SearchAgent, race_moves
from decklab.engine.registry import game_names, get_game
from same_moves import positions

Play = Callable[[int, int], float]


def plain_halving(moves: list[int], play: Play, iters: int) -> int:
    """Sequential halving as ``root=halving`` spends a budget: equal rounds, worse half out."""
    alive = list(moves)
    rounds = max(1, math.ceil(math.log2(len(alive))))
    total = dict.fromkeys(moves, 0.0)
    count = dict.fromkeys(moves, 0)
    deal = 0
    for _ in range(rounds):
        if len(alive) == 1:
            break
        for _ in range(max(1, round(iters / rounds) // len(alive))):
            for m in alive:
                total[m] += play(deal, m)
                count[m] += 1
            deal += 1
        alive = sorted(alive, key=lambda m: -total[m] / count[m])[: math.ceil(len(alive) / 2)]
    return alive[0]


def bandit(seed: int, means: list[float], spread: list[float]) -> Play:
    """A synthetic root: each deal's luck is shared by every move, plus each move's own noise."""
    rng = random.Random(seed)
    luck: dict[int, float] = {}

    def play(deal: int, move: int) -> float:
        if deal not in luck:
            luck[deal] = rng.random()
        return luck[deal] + means[move] + rng.gauss(0.0, spread[move])

    return play


def test_the_race_finds_a_risky_best_move_that_halving_drops() -> None:
    """The best move is the one with noisy returns: six deals often rank it last."""
    means, spread = [0.0, 0.1, 0.0, 0.0], [0.05, 0.4, 0.05, 0.05]
    trials = 300
    raced = sum(race_moves([0, 1, 2, 3], bandit(s, means, spread), 48) == 1 for s in range(trials))
    halved = sum(
        plain_halving([0, 1, 2, 3], bandit(s, means, spread), 48) == 1 for s in range(trials)
    )
    assert halved < 0.70 * trials  # the flaw: plain halving loses the best move often
    assert raced >= halved + 0.08 * trials


def test_the_race_drops_a_clearly_worse_move_and_stops_early() -> None:
    plays: list[tuple[int, int]] = []

    def play(deal: int, move: int) -> float:
        plays.append((deal, move))
        return [1.0, 0.0, 0.0][move] + 0.01 * ((deal * 7 + move) % 3)

    assert race_moves([2, 0, 1], play, 300) == 0
    assert len(plays) == 18  # six deals each, then the two worse moves are gone
    assert {d for d, m in plays if m == 2} == {d for d, m in plays if m == 0}  # shared deals


def test_equal_moves_keep_the_first_and_spend_the_budget() -> None:
    plays: list[int] = []

    def play(deal: int, move: int) -> float:
        plays.append(move)
        return float(deal % 2)

    assert race_moves([5, 3, 4], play, 30) == 5
    assert len(plays) == 30 and plays.count(3) == 10  # never dropped: no difference at all
    assert race_moves([7], play, 30) == 7


def test_race_agent_reports_how_it_chose_and_repeats_from_a_seed() -> None:
    from decklab.games.notorious.state import NotoriousState

    state = NotoriousState.new(4, seed=2)
    seat = state.to_act()[0]
    spec = "ismcts:iters=48,topk=4,root=race,rollout=greedy,depth=4,prior=greedy,model=1,seed=5"
    hint = make_agent(spec).hint(state, seat)
    assert "race on shared sampled deals" in hint.reason
    assert sum(hint.visits.values()) <= 48
    assert hint.visits[hint.text] == max(hint.visits.values())  # the choice ran the whole race
    assert make_agent(spec).hint(state, seat).action == hint.action


CHEAT_RACE = "cheat:iters=48,topk=4,root=race,rollout=greedy,depth=4,prior=greedy,model=1,seed=5"


def test_cheat_races_its_root_like_the_expert_and_repeats_from_a_seed() -> None:
    from decklab.games.notorious.state import NotoriousState

    state = NotoriousState.new(4, seed=2)
    seat = state.to_act()[0]
    hint = make_agent(CHEAT_RACE).hint(state, seat)
    assert hint.action in state.legal_actions(seat)
    # the root went through race() (its phrase, and the race's choice, not the most tried)
    assert "by a race on the true state" in hint.reason and "came out best" in hint.reason
    raced = sorted(n for n in hint.visits.values() if n)
    assert len(raced) == 4 and sum(raced) <= 48  # the game's top 4 only, within the budget
    assert raced[0] >= RACE_MIN_DEALS  # none dropped before every move played six deals
    assert hint.visits[hint.text] == raced[-1]  # the choice ran the whole race
    assert make_agent(CHEAT_RACE).hint(state, seat) == hint  # the same seed, the same all
    assert make_agent(CHEAT_RACE).choose(state, seat) == hint.action
    plain = make_agent(CHEAT_RACE.replace("root=race,", "")).hint(state, seat)
    assert "race" not in plain.reason and "tried most" in plain.reason  # ucb stays the default


def test_cheat_races_on_the_true_state_and_a_fair_search_on_sampled_ones() -> None:
    from decklab.games.notorious.state import NotoriousState

    state = NotoriousState.new(4, seed=2)
    seat = state.to_act()[0]
    seats = range(state.num_players)
    cheat, fair = make_agent(CHEAT_RACE), make_agent(CHEAT_RACE.replace("cheat", "ismcts"))
    assert isinstance(cheat, SearchAgent) and isinstance(fair, SearchAgent)
    seen = cheat.root_worlds(state, seat)()
    assert seen is not state and all(seen.view(s) == state.view(s) for s in seats)
    sampled = fair.root_worlds(state, seat)()
    assert sampled.view(seat) == state.view(seat)
    assert any(sampled.view(s) != state.view(s) for s in seats)  # others' hands were sampled


def test_cheat_with_the_race_plays_legal_moves_in_every_game() -> None:
    spec = "cheat:iters=24,root=race,rollout=greedy,depth=8,prior=greedy,model=1,topk=4,seed=3"
    for name in game_names():
        for state in positions(get_game(name), 21, 2):
            seat = state.to_act()[0]
            action = make_agent(spec).choose(state, seat)
            assert action in state.legal_actions(seat), name
            assert make_agent(spec).choose(state, seat) == action, name
