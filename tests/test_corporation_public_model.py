"""Corporation's opponent model counts each seat's habits and loyalty once a round and
shares them (``TableModel``): the search's greedy guidance asked for every
seat of every position it visits, and recounted them each time.

The promise is that nothing changes but the time. It breaks if the counts go stale (a
round applied, the old counts kept), if two clones that took different rounds share
counts, or if the counts ever read a face-down choice. Each test compares with a count
made afresh on a state without any kept counts.
"""

from __future__ import annotations

import copy
import pickle
import random

from decklab.games.corporation.state import (
    MEMORY,
    CorporationState,
    _focal,
    _loyalty,
    _loyalty_counts,
    _memo,
    greedy_choices,
    greedy_values,
)


def _fresh(state: CorporationState, seat: int) -> dict[int, float]:
    """greedy's values as if nothing had been counted before."""
    bare = state.clone()
    bare._model = None
    return greedy_values(bare, seat)


def _play_round(state: CorporationState, rng: random.Random) -> None:
    for seat in state.to_act():
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def _fresh_choices(state: CorporationState, seat: int) -> list[int]:
    bare = state.clone()
    bare._model = None
    return greedy_choices(bare, seat)


def test_the_counts_follow_each_new_round() -> None:
    rng = random.Random(3)
    state = CorporationState.new(6, seed=3)
    for _ in range(14):
        for seat in range(6):
            assert greedy_values(state, seat) == _fresh(state, seat)
        _play_round(state, rng)
        if state.is_terminal():
            break
    assert len(state.rounds) >= 10, "too few rounds to have formed Corporations"


def test_clones_that_take_different_rounds_count_their_own() -> None:
    rng = random.Random(5)
    parent = CorporationState.new(8, seed=5)
    for _ in range(6):
        _play_round(parent, rng)
    for seat in range(8):
        greedy_values(parent, seat)  # the parent's counts, shared by its clones
    left, right = parent.clone(), parent.clone()
    _play_round(left, random.Random(1))
    _play_round(right, random.Random(2))
    assert left.rounds[-1] != right.rounds[-1]
    for seat in range(8):
        assert greedy_values(left, seat) == _fresh(left, seat)
        assert greedy_values(right, seat) == _fresh(right, seat)
    assert _memo(left).habits != _memo(right).habits


def test_the_counts_never_read_a_face_down_choice() -> None:
    rng = random.Random(9)
    state = CorporationState.new(5, seed=9)
    for _ in range(5):
        _play_round(state, rng)
    before = {seat: greedy_values(state, seat) for seat in range(5)}
    chooser = state.to_act()[0]
    state.apply(chooser, state.legal_actions(chooser)[-1])  # face down: nobody sees it yet
    for seat in range(5):
        assert greedy_values(state, seat) == before[seat] == _fresh(state, seat)


def test_clones_that_reveal_the_same_round_share_one_model_and_it_is_right() -> None:
    """A search reaches the same history in many iterations, each on a clone of the
    root: the model of a round revealed next is kept by its values and shared. It must
    be the model of that history, whichever clone counted it first, and greedy's kept
    choices must be the ones made afresh."""
    parent = CorporationState.new(7, seed=11)
    rng = random.Random(4)
    for _ in range(4):
        _play_round(parent, rng)
    greedy_choices(parent, 0)  # the parent's model, which its clones share
    first, second, other = parent.clone(), parent.clone(), parent.clone()
    _play_round(first, random.Random(8))
    _play_round(second, random.Random(8))  # the same values, so the same history
    _play_round(other, random.Random(9))
    assert first.rounds == second.rounds != other.rounds
    for seat in range(7):
        assert greedy_choices(first, seat) == _fresh_choices(first, seat)
        assert greedy_values(other, seat) == _fresh(other, seat)
    assert second._model is None or second._model is parent._model
    greedy_choices(second, 3)
    assert second._model is first._model  # counted once, for both
    assert other._model is not first._model
    for seat in range(7):
        assert greedy_choices(second, seat) == _fresh_choices(second, seat)
        assert greedy_choices(other, seat) == _fresh_choices(other, seat)


def test_kept_choices_follow_a_whole_game_of_mixed_clones() -> None:
    """Adversarial: many clones of one table take random rounds, some the same, some
    not, in an interleaved order; at every step each one's kept choices equal a count
    made afresh on its own history."""
    rng = random.Random(21)
    root = CorporationState.new(6, seed=21)
    states = [root]
    for _ in range(12):
        grown = []
        for state in states:
            if state.is_terminal():
                continue
            for pick in (rng.randrange(3), rng.randrange(3)):
                child = state.clone()
                _play_round(child, random.Random(pick))
                grown.append(child)
        states = grown[:12]
        for state in states:
            seat = rng.randrange(6)
            assert greedy_choices(state, seat) == _fresh_choices(state, seat)
    assert states, "every line ended too soon to test anything"


def test_loyalty_counted_one_round_on_equals_counting_afresh_past_the_window() -> None:
    """A model made as the successor of another adds the newest round to its loyalty
    counts and takes out the one that left the window (3 × MEMORY rounds). It breaks if
    a round is counted twice, or the old one is never taken out: checked on a game of
    more rounds than the window, at every round, for every seat, against a count made
    afresh, with the partners kept loyal often enough that the counts are not all zero."""
    rng = random.Random(17)
    state = CorporationState.new(4, {"target": 10_000, "max_rounds": 200}, seed=17)
    loyal_rounds = 0
    for _ in range(3 * MEMORY + 12):
        model = _memo(state)
        for seat in range(4):
            assert model.loyal(state, seat) == _loyalty(state, seat)
        assert model.counts == [_loyalty_counts(state.rounds, state.top, s) for s in range(4)]
        loyal_rounds += sum(1 for hits, _ in model.counts if hits)
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            # Play the focal value of one's Corporation half the time: loyalty to count.
            focal = [v for v, members in state.corporations if seat in members]
            pick = _focal(state.top, focal[0]) if focal and rng.random() < 0.5 else None
            state.apply(seat, pick if pick in legal else rng.choice(legal))
        assert not state.is_terminal()
    assert len(state.rounds) > 3 * MEMORY
    assert loyal_rounds > 0, "nobody was ever loyal: the counts were never tested"


def test_a_pickled_or_copied_state_leaves_the_kept_model_behind_and_plays_the_same() -> None:
    """States travel to worker processes by pickle (the lab's pools) and are deep-copied:
    the kept model is a cache holding every history a search reached from the state, so
    it is left behind, and the copy counts afresh to the same values. This failed with
    a TypeError in every worker on the first version of the shared model."""
    rng = random.Random(6)
    state = CorporationState.new(6, seed=6)
    for _ in range(5):
        _play_round(state, rng)
    wanted = [greedy_choices(state, seat) for seat in range(6)]
    child = state.clone()
    _play_round(child, random.Random(1))
    greedy_choices(child, 0)  # its model is kept as a successor in the parent's
    assert state._model is not None and state._model.after
    for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert copied._model is None
        assert [greedy_choices(copied, seat) for seat in range(6)] == wanted
        assert copied.rounds == state.rounds
