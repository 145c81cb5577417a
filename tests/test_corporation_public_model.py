"""Corporation's opponent model counts each seat's habits and loyalty once a round and
shares them with clones (``public_model``): the search's greedy guidance asked for every
seat of every position it visits, and recounted them each time.

The promise is that nothing changes but the time. It breaks if the counts go stale (a
round applied, the old counts kept), if two clones that took different rounds share
counts, or if the counts ever read a face-down choice. Each test compares with a count
made afresh on a state without any kept counts.
"""

from __future__ import annotations

import random

from decklab.games.corporation.state import CorporationState, greedy_values, public_model


def _fresh(state: CorporationState, seat: int) -> dict[int, float]:
    """greedy's values as if nothing had been counted before."""
    bare = state.clone()
    bare._model = None
    return greedy_values(bare, seat)


def _play_round(state: CorporationState, rng: random.Random) -> None:
    for seat in state.to_act():
        state.apply(seat, rng.choice(state.legal_actions(seat)))


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
    assert public_model(left)[0] != public_model(right)[0]


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
