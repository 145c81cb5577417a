"""Façade's core choices, for ``decklab restricted`` (decklab.lab.choices).

Both look at the position, not only at the action's text (``bid KH 9D``: the bid
card, then the supply card):

- a **high bid** puts down one of the bidder's highest bid cards still in hand
  (F2: Q and K are worth 4, J 2, A 1; F5: the four come back every phase), so
  with Q and K in hand either is high, and once only the A and J are left the J
  is. Never making one means always bidding the cheapest card first.
- an **all-in bid** puts a bid card on a supply card that already holds one of
  the bidder's own bids this phase (F5 allows several there; F6 sums them): the
  bidder goes in harder for one card rather than spreading the bids.

Both read only what the bidder knows: its own hand and where its own bids lie.
"""

from __future__ import annotations

from typing import Any

from decklab.games.facade.state import BID_WORTH, PLACE_BASE, FacadeState


def _is_bid(action: int) -> bool:
    return 0 <= action < PLACE_BASE


def high_bid(state: FacadeState, seat: int, action: int) -> bool:
    """F2/F5: the bid card is worth as much as the best bid card left in the bidder's hand."""
    if not _is_bid(action):
        return False
    hand = state.hands[seat]
    best = max((BID_WORTH[k] for k in range(4) if hand >> k & 1), default=0)
    return BID_WORTH[action >> 7] == best


def all_in_bid(state: FacadeState, seat: int, action: int) -> bool:
    """F5/F6: the supply card already holds a bid of the bidder's own this phase."""
    if not _is_bid(action):
        return False
    target = action & 127
    return any(s == seat and c == target for s, _, c in state.bids)


def choices() -> list[dict[str, Any]]:
    return [
        {
            "name": "high bids",
            "when": high_bid,
            "about": "bid one of the highest-worth bid cards left in hand (F2, F5)",
        },
        {
            "name": "all-in bids",
            "when": all_in_bid,
            "about": "put a bid card where one of your own bids already lies (F5, F6)",
        },
        {"name": "low bids", "pattern": r"^bid [AJ]", "about": "bid an A or J (worth 1 or 2)"},
    ]
