"""Lonely Face's judge for the ``fast`` agent (``bots/fast.py``): greedy, one reply deeper.

``fast``'s generic way (the game's top moves, each followed by a few greedy moves
on four sampled deals) did not separate from ``greedy`` here at any table size:
the luck of the next turn suits, drawn afresh in every rollout, drowns the small
differences between good moves. This judge takes that luck out by counting it:
after each candidate move (with the seat's own choice among new pairs, L7, the
best of them), the next player's turn is tried under *every* turn suit, each
weighed by its public chance (the die's faces, or the turn deck's cards not yet
turned), and that player's best move is rated by greedy's own heuristics
(``greedy.action_values``: its points now, minus what it leaves to the player
after it). A move's value is then

    what the seat gains now (points, a pair's tie-break worth, the hand's worth)
    − Σ over suits  P(suit) · the next player's best value under that suit,

so a move that hands the next player a pair, *or the means to make one* by a
flip or a swap, pays for it; greedy sees only the pairs already on the grid.
The next player's hand is the sampled deal's (``fast`` passes a determinization);
the grid and the odds are public.
"""

from __future__ import annotations

import random
from typing import Final

from decklab.games.lonely_face.greedy import (
    HAND_WORTH,
    PAIR_COUNT,
    _suit_odds,
)
from decklab.games.lonely_face.greedy import (
    action_values as rate,
)
from decklab.games.lonely_face.state import CHOOSE, OVER, LonelyFaceState

TOP: Final = 4
"""Candidate moves looked at: greedy's best four (every new-pair choice is looked at)."""


def _gain(before: LonelyFaceState, after: LonelyFaceState, seat: int) -> float:
    """What the seat got by its turn: points, the pairs' tie-break worth, the hand's worth."""
    pairs = len(after.piles[seat]) - len(before.piles[seat])
    hand = sum(HAND_WORTH[c] for c in after.hands[seat]) - sum(
        HAND_WORTH[c] for c in before.hands[seat]
    )
    return float(after.points[seat] - before.points[seat]) + PAIR_COUNT * pairs / 2 + hand


def _reply(after: LonelyFaceState, odds: list[float], rng: random.Random) -> float:
    """The next player's best value, averaged over the turn suits by their chance."""
    if after.phase == OVER:
        return 0.0
    other = after.cur
    total = 0.0
    for suit, p in enumerate(odds):
        if p <= 0.0:
            continue
        trial = after.clone()
        trial.suit = suit
        trial._gen_legal()
        best = max(rate(trial, other, rng).values(), default=0.0)
        total += p * best
    return total


def _value(
    state: LonelyFaceState, seat: int, action: int, odds: list[float], rng: random.Random
) -> float:
    after = state.clone()
    after.apply(seat, action)
    if after.phase == CHOOSE and after.cur == seat:  # L7: the seat's own pick, the best
        return max(_value(after, seat, a, odds, rng) for a in after.legal_actions(seat)) + (
            _gain(state, after, seat)
        )
    return _gain(state, after, seat) - _reply(after, odds, rng)


def action_values(
    state: LonelyFaceState, seat: int, rng: random.Random, samples: int = 1
) -> dict[int, float]:
    """Greedy's best moves' worth: the seat's gain minus the next player's expected best reply.

    ``state`` is a sampled deal (``fast`` hands the judge a determinization); only
    the next player's hand is read beyond the public table, and only as sampled.
    ``samples`` is unused: the turn suits are counted, not drawn.
    """
    legal = state.legal_actions(seat)
    ranked = rate(state, seat, rng)
    if state.phase == CHOOSE:
        moves = list(legal)
    else:
        moves = sorted(legal, key=lambda a: -ranked.get(a, -1e9))[:TOP]
    odds = _suit_odds(state)
    return {a: _value(state, seat, a, odds, rng) for a in moves}
