"""Notorious's greedy values, worked out once per (card value, target) for both faces,
are bit for bit those of one pass over the seats per move.

The expert's rollouts and prior are this player, so its speed is the expert's; the
records of docs/strength.md were made before the shortcut, and they stay valid only if
not one value moves. ``reference_play`` is the earlier code, kept here as the oracle.
"""

from __future__ import annotations

import math
import random

import pytest

from decklab.games.notorious import greedy
from decklab.games.notorious.state import PLAY, NotoriousState


def reference_play(state: NotoriousState, seat: int, legal: list[int]) -> dict[int, float]:
    """``greedy._play`` before the shortcut: one pass over the seats for every move."""
    value_of = greedy._VALUE
    n = state.num_players
    order = state.order
    known = [0.0] * n
    hidden = [0] * n
    seen_value = 0
    seen_count = 0
    for k, a in enumerate(state.plays):
        target = (a >> 1) & 15
        if a & 1 and order[k % n] != seat:
            hidden[target] += 1
        else:
            v = value_of[a >> 5]
            known[target] += v
            seen_value += v
            seen_count += 1
    for _by, card, _to, _from_pack in state.gives:
        seen_value += value_of[card]
        seen_count += 1
    hand = state.hands[seat]
    decks = 1 if n <= 7 else 2
    unseen_count = 52 * decks - seen_count - len(hand)
    unseen_value = greedy._DECK_VALUE * decks - seen_value - sum(value_of[c] for c in hand)
    mean = unseen_value / unseen_count if unseen_count > 0 else 6.5
    left = state.rounds * n - len(state.plays) - 1
    future = left * mean / n
    est = [known[s] + hidden[s] * mean + future for s in range(n)]
    spread = math.sqrt(sum(hidden) / n * 9.0 + left / n * 60.0)
    temp = max(1.5, spread)
    bonus_now = state.rounds - state.round + 1
    bonus = state.bonus
    top = max(est)
    weights = [math.exp((e - top) / temp) for e in est]
    total_weight = sum(weights)
    values: dict[int, float] = {}
    for action in legal:
        target = (action >> 1) & 15
        up = not action & 1
        v = value_of[action >> 5]
        w_t = math.exp((est[target] + v - top) / temp)
        z = total_weight - weights[target] + w_t
        gains = 0.0
        mine = 0.0
        for s in range(n):
            e = est[s] + (v if s == target else 0.0)
            w = w_t if s == target else weights[s]
            g = bonus[s] + (bonus_now if up and s == target else 0) + (1.0 - w / z) * e
            if s == seat:
                mine = g
            else:
                gains += g
        values[action] = mine - gains / (n - 1)
    return values


def round_positions(players: int, seed: int, every: int = 3) -> list[tuple[NotoriousState, int]]:
    """Round-play positions (state, seat to play) of a whole match, every ``every``-th on
    average; the moves half random, half greedy's, so that tables of every shape occur."""
    rng = random.Random(seed)
    state = NotoriousState.new(players, seed=seed)
    out = []
    while not state.is_terminal():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if state.phase == PLAY and rng.randrange(every) == 0:
            out.append((state.clone(), seat))
        move = rng.choice(legal) if rng.random() < 0.5 else greedy.greedy_action(state, seat, rng)
        state.apply(seat, move)
    return out


@pytest.mark.parametrize("players", range(3, 11))
def test_the_shortcut_gives_every_value_bit_for_bit(players: int) -> None:
    checked = 0
    for seed in range(3):
        for state, seat in round_positions(players, 1000 * players + seed):
            legal = state.legal_actions(seat)
            expected = reference_play(state, seat, legal)
            got = greedy._play(state, seat, legal)
            assert list(got) == list(expected)
            assert [x.hex() for x in got.values()] == [x.hex() for x in expected.values()]
            checked += 1
    assert checked >= 50
