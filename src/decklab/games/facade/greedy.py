"""A rule-based Façade player: what a thoughtful first-time player would do.

The heuristics, and why:

* **Judge a group by where it can still go.** Every group is worth what it is
  expected to score at the end (F9): a complete group its +1 (+3 for a house
  sequence); an unfinished one ``p × (what it would score) − (1 − p) × its size``,
  where ``p`` is the chance of getting the cards it still needs, for its best
  way to complete (a set, or one run that covers it). A needed card
  that lies in anyone's tableau, waits to be placed or is discarded is gone for
  good; one in the supply or still in the draw pile comes with chance
  ``LAND`` (0.55). That number is measured, not guessed: much lower and every
  new group looks like a loss, so a table of greedy players takes nothing and
  all score 0; higher and they collect cards they cannot finish. Taking the
  best way alone, not the chance that any way works out, is pessimistic on
  purpose: it played clearly better head to head. A set-to-be needs any of its
  rank's remaining cards; a sequence-to-be needs exactly the ranks that fill its
  gaps and stretch it to three. So a group with a dead gap counts as the loss it
  will be, and a house-suit run is worth chasing (F9's +3).
* **Place where the expectation rises most** (F7, F8): topping up a complete set
  or run costs nothing, completing a group gains most, and a new group is the
  fallback, because an unfinished card costs a point.
* **Bid for what helps you and what would help the others.** A supply card is
  worth its best placement for you, plus half of what it is worth to the rival
  it would help most (taking it away from them is worth something too). Cards
  that would only start dead groups are worth less than nothing: not bidding on
  them is the point.
* **Bid where a bid card changes the outcome most.** Each turn the bid card and
  supply card with the largest gain ``worth × (rise in the chance of taking it)``
  are chosen. The chance counts the other players' visible face-down bids on the
  card as random cards from their A J Q K (1 2 4 4), plus one more that may still
  come while they have bid cards left, and a tie takes nothing (F6). So the king
  goes first on the card that matters most, the next cards secure it or go to the
  next best card, and a bid card that cannot help anywhere is left where it
  changes nothing.

Only public facts are read: the supply, every tableau, won cards waiting to be
placed, the discard, the house suits, where each bid lies and how many bid cards
each seat has left, and the seat's own bid cards. Never another seat's bid card
values, nor the order of the draw pile (only which cards it holds, which is
everything not yet seen).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Final

from decklab.games.facade.scoring import can_join, group_kind, group_score
from decklab.games.facade.state import BID_WORTH, BIDDING, PLACE_BASE, FacadeState

DENIAL: Final = 0.5
"""How much a card is worth to us because a rival would gain it otherwise."""
LAND: Final = 0.55
"""The chance of getting a card still to come that one goes for (see the docstring)."""


def _below_table() -> list[list[float]]:
    """``table[k][bid]``: the chance that k bid cards drawn at random from a rival's
    A J Q K (1 2 4 4) sum to less than ``bid`` (0 … 12; 11 is a whole hand)."""
    table = []
    for k in range(5):
        combos = list(combinations(BID_WORTH, k))
        sums = [sum(combo) for combo in combos]
        table.append([sum(1 for t in sums if t < bid) / len(sums) for bid in range(13)])
    return table


_BELOW: Final = _below_table()


_SHARED: Final[dict[int, dict[tuple[tuple[int, ...], int], float]]] = {}
"""Group estimates by the set of cards still to come, shared between decisions.

An estimate depends only on that set, and it changes only when a card moves,
so consecutive decisions (and every sampled deal of one search decision: the
set is public) reuse each other's estimates. Cleared when it grows too big.
"""
_SHARED_MAX: Final = 256

_WORTHS: Final[dict[int, dict[tuple[tuple[tuple[int, ...], ...], int], dict[int, float]]]] = {}
"""What each card is worth to a tableau (:meth:`_Table.worth`), by the set of cards still
to come, then by the tableau and its house suit, then by the card.

Like an estimate, a card's worth depends only on those, and a bidding phase asks the
same questions at every bid (the supply and the tableaux do not change while bids are
laid), so most of a bid's work is looked up. Cleared with the same bound.
"""


class _Table:
    """What one decision needs: each card's chance to still come to a seat, and the seats."""

    __slots__ = ("cache", "chance", "house", "rows", "worths")

    def __init__(self, state: FacadeState) -> None:
        n = state.num_players
        self.house = state.house
        gone: set[int] = set(state.discard)
        for s in range(n):
            gone.update(state.won[s])  # public: "to_place" in the view
            for g in state.groups[s]:
                gone.update(g)
        supply = set(state.supply)
        # Cards still to come: the supply (biddable now or next phase) and the
        # unseen rest, which is the draw pile as a set (its order is never read).
        # Once the last placements are under way, nothing more comes.
        last = not state.pile and state.mode != BIDDING
        chance = [0.0] * 128
        coming = 0  # the cards with a chance, as a bitmask: all the estimates depend on
        if not last:
            pile = bool(state.pile)
            for c in state.full_deck():
                if c in gone:
                    continue
                if pile or c in supply:
                    chance[c] = LAND
                    coming |= 1 << c
        self.chance = chance
        cache = _SHARED.get(coming)
        if cache is None:
            if len(_SHARED) >= _SHARED_MAX:
                _SHARED.clear()
            cache = _SHARED[coming] = {}
        self.cache = cache
        worths = _WORTHS.get(coming)
        if worths is None:
            if len(_WORTHS) >= _SHARED_MAX:
                _WORTHS.clear()
            worths = _WORTHS[coming] = {}
        self.worths = worths
        self.rows: dict[int, dict[int, float]] = {}

    def estimate(self, group: tuple[int, ...], house: int) -> float:
        """The expected final score of ``group`` (see the module docstring), memoised."""
        key = (group, house)
        got = self.cache.get(key)
        if got is None:
            got = self.cache[key] = self._estimate(group, house)
        return got

    def _estimate(self, group: tuple[int, ...], house: int) -> float:
        size = len(group)
        if size >= 3 and group_kind(group) != "incomplete":
            return float(group_score(group, house))
        chance = self.chance
        first = group[0]
        rank, suit = first & 15, first >> 4
        best = -float(size)  # nothing more comes: it scores minus its size (F9)
        if size == 1 or (group[1] & 15) == rank:
            # A set-to-be: any (3 - size) of the rank's remaining cards.
            probs = [chance[rank | (t << 4)] for t in range(5)]
            probs = [p for t, p in enumerate(probs) if p > 0.0 and rank | (t << 4) not in group]
            p = _at_least(probs, 3 - size)
            best = max(best, p - (1.0 - p) * size)
        if size == 1 or (group[1] >> 4) == suit:
            # A sequence-to-be: each shortest run of three or more that covers it.
            ranks = {c & 15 for c in group}
            lo, hi = min(ranks), max(ranks)
            length = max(3, hi - lo + 1)
            score = 3.0 if suit == house else 1.0
            base = suit << 4
            for a in range(max(2, hi - length + 1), min(lo, 10 - length + 1) + 1):
                p = 1.0
                for r in range(a, a + length):
                    if r not in ranks:
                        p *= chance[base | r]
                        if p == 0.0:
                            break
                if p > 0.0:
                    best = max(best, p * score - (1.0 - p) * size)
        return best

    def worth(self, state: FacadeState, seat: int, card: int) -> float:
        """How much ``card`` would raise ``seat``'s expected final score, placed at its best."""
        row = self.rows.get(seat)
        if row is None:
            key = (tuple(state.groups[seat]), self.house[seat])
            row = self.worths.get(key)
            if row is None:
                row = self.worths[key] = {}
            self.rows[seat] = row
        got = row.get(card)
        if got is None:
            got = row[card] = self._worth(state, seat, card)
        return got

    def _worth(self, state: FacadeState, seat: int, card: int) -> float:
        house = self.house[seat]
        best = self.estimate((card,), house)
        for g in state.groups[seat]:
            if can_join(g, card):
                best = max(best, self.estimate((*g, card), house) - self.estimate(g, house))
        return best


def _at_least(probs: list[float], need: int) -> float:
    """The chance that at least ``need`` of independent events with ``probs`` happen."""
    if need <= 0:
        return 1.0
    if len(probs) < need:
        return 0.0
    dist = [1.0] + [0.0] * need  # dist[j]: chance of j successes so far (need capped)
    for p in probs:
        for j in range(need, 0, -1):
            dist[j] = dist[j] * (1.0 if j == need else 1.0 - p) + dist[j - 1] * p
        dist[0] *= 1.0 - p
    return dist[need]


def _place(state: FacadeState, seat: int, legal: list[int], table: _Table) -> dict[int, float]:
    """Each placement's rise in the seat's expected final score (F7, F8)."""
    house = table.house[seat]
    groups = state.groups[seat]  # own tableau: public
    estimates = [table.estimate(g, house) for g in groups]
    values: dict[int, float] = {}
    for action in legal:
        rest = action - PLACE_BASE
        card, dest = rest >> 6, rest & 63
        if dest == 0:
            gain = table.estimate((card,), house)
        else:
            g = groups[dest - 1]
            gain = table.estimate((*g, card), house) - estimates[dest - 1]
        values[action] = gain
    return values


def _bid(state: FacadeState, seat: int, legal: list[int], table: _Table) -> dict[int, float]:
    """What each bid card on each supply card gains (F4–F6)."""
    n = state.num_players
    supply = state.supply
    mine = dict.fromkeys(supply, 0)
    counts = {c: [0] * n for c in supply}
    for s, k, c in state.bids:
        if s == seat:
            mine[c] += BID_WORTH[k]  # own bid card: known to the seat
        else:
            counts[c][s] += 1  # another seat's bid: only where it lies is public
    left = [state.hands[s].bit_count() for s in range(n)]  # public: bid_cards_left
    # The chance that a rival with bid cards left puts one more on a given card.
    spread = [1.0 - (1.0 - 1.0 / len(supply)) ** left[s] for s in range(n)]

    def p_take(card: int, bid: int) -> float:
        if bid <= 0:
            return 0.0
        p = 1.0
        row = counts[card]
        for s in range(n):
            if s == seat:
                continue
            k = row[s]
            now = _BELOW[k][bid]
            if left[s] and k < 4:
                now = (1.0 - spread[s]) * now + spread[s] * _BELOW[k + 1][bid]
            p *= now
        return p

    worth: dict[int, float] = {}
    for c in supply:
        rival = max((table.worth(state, s, c) for s in range(n) if s != seat), default=0.0)
        worth[c] = table.worth(state, seat, c) + DENIAL * max(0.0, rival)
    values: dict[int, float] = {}
    base = {c: p_take(c, mine[c]) for c in supply}
    for action in legal:
        k, c = action >> 7, action & 127
        values[action] = worth[c] * (p_take(c, mine[c] + BID_WORTH[k]) - base[c])
    return values


def greedy_action(state: FacadeState, seat: int, rng: random.Random) -> int:
    """The bid or placement for ``seat`` under the heuristics of the module docstring.

    Deterministic: ties go to the first legal action in the game's order, so ``rng``
    is not needed.
    """
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    values = action_values(state, seat, rng)
    bidding = state.mode == BIDDING
    best = legal[0]
    for action in legal:
        # Strictly better only: ties keep the game's order (for a bid, the bigger
        # bid card is kept for later; 1e-9 so rounding does not count as better).
        if values[action] > values[best] + (1e-9 if bidding else 0.0):
            best = action
    return best


def action_values(state: FacadeState, seat: int, rng: random.Random) -> dict[int, float]:
    """Every legal move's worth under the heuristics above: what search ranks moves by."""
    legal = state.legal_actions(seat)
    table = _Table(state)
    if state.mode == BIDDING:
        return _bid(state, seat, legal, table)
    return _place(state, seat, legal, table)


def expected_scores(state: FacadeState) -> list[float]:
    """Every seat's expected final score: its groups' estimates plus its best use of won cards.

    What search judges a game it cut off by. Reads the state's tableaux, won cards and
    the set of cards still to come, never the draw pile's order; search hands it a
    sampled deal anyway.
    """
    if state.is_terminal():
        return state.scores()
    table = _Table(state)
    out = []
    for s in range(state.num_players):
        house = table.house[s]
        total = sum((table.estimate(g, house) for g in state.groups[s]), 0.0)
        total += sum(table.worth(state, s, c) for c in state.won[s])
        out.append(float(total))
    return out
