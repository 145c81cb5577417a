"""A rule-based player for The Cabin by the Sea: what a thoughtful first-time player does.

It reads only the seat's view (``state.view(0)``) and the legal actions, so it can
be handed the true state or a sample without learning anything hidden. No search:
every choice is a price list, cheapest wins.

* Building a card on a stack costs the cards of its suit that are still to come and
  that it jumps over (they can no longer go there), counted only where no other
  stack or free slot could take them. The tightest fit is usually cheapest.
* Starting a stack costs a slot; slots are dear once there are fewer left than
  suits still without a stack. An ace is the best starter (everything of its suit
  goes on it) and otherwise belongs on top of the stack with least left to come.
* A sea card that fits badly is anchored instead, for the beach's known top card
  if that fits well, else for the unknown cabin card (which may be an ace).
* Once the sea is empty: a visible card that can never be built is taken at once
  (it is lost anyway, and it blocks its pile); otherwise the best-fitting visible
  card, or the cabin's hidden one when nothing visible fits well.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from decklab import cards
from decklab.games.cabin.state import (
    ANCHOR,
    ANCHOR_BEACH,
    ANCHOR_CABIN,
    DUMP,
    NEW,
    TAKE_BEACH,
    TAKE_CABIN,
    TAKE_DEEP,
    CabinState,
)

_ACE_HIGH: Final = 14

# The prices below were tuned on seeded deals (the rules above set their shape).
SLOT: Final = 1.75
"""A free slot's base price; it rises as slots run out."""
SLOT_SCARCE: Final = 12.0
"""Extra price of a slot once no more are left than suits waiting for a live stack."""
ACE_START: Final = 0.5
"""An ace starting a stack costs this share of a slot."""
CLOSE: Final = 0.2
"""Closing a stack with an ace costs this on top of what it shuts out."""
CABIN: Final = 1.3
"""The guess for the unseen cabin card."""
CABIN_ACE_GIFT: Final = 1.75
"""How much an ace among the cabin's cards is worth while a slot is free."""
CABIN_ACE_RISK: Final = 8.0
"""How much an ace hurts once no slot is free (it must close a stack)."""
LATER: Final = 1.0
"""The guess for sending a card that could still be built to the deep sea."""
TIGHT_WHEN_FULL: Final = 0.85
"""Cards shut out count this much more once no slot is free to rescue them."""
BELOW_NEW: Final = 0.1
"""Share of the cards below a new stack's start that no other stack takes."""


def _points(c: int) -> int:
    r = c & 15
    return 2 if r == cards.ACE or r >= cards.JACK else 1


def _high(c: int) -> int:
    """A card's rank as it goes on a stack: an ace counts 14."""
    r = c & 15
    return _ACE_HIGH if r == cards.ACE else r


@dataclass
class Table:
    """What the player knows now, read from the view."""

    tops: list[tuple[int, int]]
    """Each stack as (suit, top rank), an ace that started a stack counting 1."""
    free: int
    """How many stacks may still be started."""
    to_come: set[int]
    """Every card not yet in a stack or the squid pile (wherever it is)."""
    card: int | None
    deep_top: int | None
    beach_top: int | None
    cabin_left: int
    cabin_aces: int

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Table:
        tops = []
        gone = set()
        for pile in view["stacks"].values():
            built = [cards.parse(t) for t in pile]
            gone.update(built)
            top = built[-1]
            rank = 1 if len(built) == 1 and top & 15 == cards.ACE else _high(top)
            tops.append((top >> 4, rank))
        gone.update(cards.parse(t) for t in view["squid"])
        card = cards.parse(view["card"]) if view["card"] else None
        seen = view["beach"]["seen"]
        return cls(
            tops=tops,
            free=view["stacks_allowed"] - len(tops),
            to_come=set(cards.deck()) - gone - ({card} if card is not None else set()),
            card=card,
            deep_top=cards.parse(view["deep"][0]) if view["deep"] else None,
            beach_top=cards.parse(seen[0]) if seen else None,
            cabin_left=view["cabin"],
            cabin_aces=view["unseen"]["cabin"]["aces"],
        )

    # ----------------------------------------------------------- prices
    def _homeless(self, suit: int, lo: int, hi: int, skip: int) -> float:
        """Points of the cards to come of ``suit`` with rank in (lo, hi) that no stack
        but ``skip`` takes (a free slot halves the worry)."""
        total = 0.0
        for c in self.to_come:
            if c >> 4 != suit:
                continue
            r = _high(c)
            if not lo < r < hi:
                continue
            if any(s == suit and t < r for j, (s, t) in enumerate(self.tops) if j != skip):
                continue
            total += _points(c)
        return total * TIGHT_WHEN_FULL if not self.free else total

    def slot_price(self) -> float:
        """What a free slot is worth: a lot once suits without a live stack could use them all."""
        suits = {c >> 4 for c in self.to_come}
        housed = {s for s, t in self.tops if t < _ACE_HIGH}
        waiting = len(suits - housed)
        allowed = self.free + len(self.tops)
        price = SLOT * (1.0 + 2.0 * len(self.tops) / allowed)
        return price + (SLOT_SCARCE if self.free <= waiting else 0.0)

    def place_prices(self, c: int, legal: list[int]) -> dict[int, float]:
        """The price of each legal place for card ``c``: a stack index or NEW."""
        suit = c >> 4
        r = _high(c)
        out: dict[int, float] = {}
        for a in legal:
            if a < NEW:
                _s, top = self.tops[a]
                if r == _ACE_HIGH:
                    # closes the stack: everything of the suit above its top is shut out
                    out[a] = CLOSE + self._homeless(suit, top, _ACE_HIGH, a)
                else:
                    out[a] = float(self._homeless(suit, top, r, a))
            elif a == NEW:
                if r == _ACE_HIGH:  # an ace starting a stack takes its whole suit
                    out[a] = self.slot_price() * ACE_START
                else:
                    out[a] = self.slot_price() + BELOW_NEW * self._homeless(suit, 0, r, -1)
        return out

    def best_place(self, c: int) -> float | None:
        """The cheapest place for ``c`` among all stacks and a new one (None: nowhere)."""
        legal = [j for j, (s, t) in enumerate(self.tops) if s == c >> 4 and t < _high(c)]
        if self.free:
            legal.append(NEW)
        prices = self.place_prices(c, legal)
        return min(prices.values()) if prices else None

    def cabin_price(self) -> float:
        """The guess for the unseen cabin card: an ace is a gift while a slot is free."""
        if not self.cabin_left:
            return 99.0
        ace_share = self.cabin_aces / self.cabin_left
        if self.free:
            return CABIN - CABIN_ACE_GIFT * ace_share
        return CABIN + CABIN_ACE_RISK * ace_share

    def later_price(self, c: int) -> float:
        """The guess for sending ``c`` to the deep sea: cheap while something could take it."""
        if self.free or any(s == c >> 4 and t < _high(c) for s, t in self.tops):
            return LATER
        return float(_points(c))


def greedy_action(state: CabinState, seat: int, rng: random.Random) -> int:
    """The rule-based choice for ``seat`` (always 0), from its view only.

    ``rng`` is not needed (the rules are deterministic), but the signature is the
    one every game's ``greedy_action`` shares.
    """
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    view = state.view(seat)
    table = Table.from_view(view)
    phase = view["phase"]
    choice: int | None = None
    if phase == "place" and table.card is not None:
        prices = table.place_prices(table.card, legal)
        choice = min(prices, key=lambda a: (prices[a], a))
    elif phase == "sea" and table.card is not None:
        x = table.card
        options: dict[int, float] = {}
        places = table.place_prices(x, [a for a in legal if a <= NEW])
        if places:
            best = min(places, key=lambda a: (places[a], a))
            options[best] = places[best]
        later = table.later_price(x)
        if ANCHOR_BEACH in legal and table.beach_top is not None:
            fit = table.best_place(table.beach_top)
            options[ANCHOR_BEACH] = later + (fit if fit is not None else _points(table.beach_top))
        if ANCHOR_CABIN in legal:
            options[ANCHOR_CABIN] = later + table.cabin_price()
        if DUMP in legal:
            options[DUMP] = later + 0.4
        if ANCHOR in legal:
            options[ANCHOR] = later
        if options:
            choice = min(options, key=lambda a: (options[a], a))
    elif phase == "take":
        takes: dict[int, float] = {}
        for action, top in ((TAKE_DEEP, table.deep_top), (TAKE_BEACH, table.beach_top)):
            if action in legal and top is not None:
                fit = table.best_place(top)
                takes[action] = -1.0 if fit is None else fit  # a dead card: take it now
        if TAKE_CABIN in legal:
            takes[TAKE_CABIN] = table.cabin_price() - 0.5
        choice = min(takes, key=lambda a: (takes[a], a))
    return choice if choice in legal else legal[0]
