"""Goofspiel's rule-based player: bid in proportion to the prize.

The prize's rank among the prizes still to be won (this one included) picks the
card of the same rank among the seat's own cards: the top prize gets the top
card, a middling one a middling card. It is the classic "match the prize"
strategy, which beats random play clearly and is easy to exploit, as a first
opponent should be. It reads only public fields (the prize, the prizes already
turned, its own hand); never another seat's face-down bid.
"""

from __future__ import annotations

import random

from decklab_goofspiel.state import GoofspielState


def greedy_action(state: GoofspielState, seat: int, rng: random.Random) -> int:
    hand = state.hands[seat]
    prize = state.prize
    if prize is None or len(hand) == 1:
        return hand[0]
    turned = {p for p, _ in state.rounds}
    left = sorted(v for v in range(1, state.cards + 1) if v not in turned)
    rank = left.index(prize) / max(1, len(left) - 1)
    return hand[round(rank * (len(hand) - 1))]
