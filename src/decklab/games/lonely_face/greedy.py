"""A rule-based Lonely Face player: what a thoughtful first-time player would do.

Every legal move is scored by what it brings now minus what it hands the next
player, and the best is played (equal ones are split at random). The
heuristics, and why:

* **Take what scores** (L10): face pairs (+3) first, heart pairs (+1), club and
  diamond pairs (0) only for the pair count that breaks ties (L11); a spade pair
  (−1) only when the alternatives are worse.
* **Make pairs you will take.** A flip or a swap that creates new pairs obliges
  you to take one (L7), so it is worth the best new pair you may then take; a
  move that creates only spade pairs costs a point. The new pairs follow from
  the public grid and your own hand card alone, so this lookahead is fair.
* **Do not set up the next player.** A pair left in the grid is taken by the next
  player if their turn suit matches one of its cards (L5c). The threat of a
  move is the best pair it leaves (taken cells are refilled from the hidden deck,
  so count as empty), weighted by the chance of that turn suit: from the die's
  faces (L1), or from the turn deck's cards not yet turned since its last
  shuffle, which are public.
* **Keep good cards in hand.** A swap is a little better when it brings a face
  card or a heart into your hand (they make the best pairs later) and puts out
  a spade.

Search judges a game it cut off by :func:`expected_scores`: the points so far, the
cards in hand (as above), and the best move of the seat whose turn it is (its turn
suit is turned): without it, a cut-off just before that move and one just after it
would differ by a whole pair, and which one a rollout ends on depends only on how
deep the tree went.

Fair: reads the public grid, the turned turn-deck cards, the option ``suit_die``
and the seat's own legal actions (a swap names its own hand card). No other
hand, nor the main deck or the turn deck's order, is ever read.
"""

from __future__ import annotations

import random
from typing import Final

from decklab import cards
from decklab.engine.chance import std_choice
from decklab.games.lonely_face.state import OVER, LonelyFaceState
from decklab.games.lonely_face.tables import (
    DIE,
    EDGES,
    FACE_CARD,
    FLIP,
    FLIP_SIDES,
    NBT,
    PAIR,
    SCORE,
    SWAP,
    TAKE,
)

PAIR_COUNT: Final = 0.05
"""What one more pair is worth beside its points: it breaks ties (L11)."""
HAND_WORTH: Final = [0.0] * 64
"""How much a card is worth in hand: faces and hearts make good pairs later; spades bad ones."""
for _c in range(64):
    if 1 <= _c & 15 <= 13 and _c >> 4 <= cards.CLUBS:
        if FACE_CARD[_c]:
            HAND_WORTH[_c] = 0.3
        elif _c >> 4 == cards.HEARTS:
            HAND_WORTH[_c] = 0.1
        elif _c >> 4 == cards.SPADES:
            HAND_WORTH[_c] = -0.1

ESTIMATE_WORTH: Final = list(HAND_WORTH)
"""What :func:`expected_scores` counts a hand card as: by default the greedy player's own
``HAND_WORTH``; a separate table so that search's judgement of a cut-off game can be
tuned without changing how ``greedy`` (the opponent it is measured against) plays."""

Threat = tuple[float, int]
"""A pair the next player may take: (points × chance of a matching turn suit, cell mask)."""
NewPair = tuple[int, int, float]
"""A pair a flip or swap would make: (points, cell mask, its worth to the next player)."""


def _suit_odds(state: LonelyFaceState) -> list[float]:
    """The chance of each suit being the next turn suit (L1, L4), from public facts only."""
    if state.die:
        return [DIE.count(s) / len(DIE) for s in range(4)]
    left = [13.0] * 4
    for c in state.turned:  # public: turned since the last shuffle
        left[c >> 4] -= 1.0
    total = sum(left)
    if total <= 0:
        return [0.25] * 4  # the turn deck is reshuffled before the next turn
    return [x / total for x in left]


def _weight(a: int, b: int, odds: list[float]) -> float:
    """What the pair of cards a, b is worth to the next player: points × chance to take it."""
    points = SCORE[a << 6 | b]
    if points <= 0:
        return 0.0
    sa, sb = a >> 4, b >> 4
    return points * (odds[sa] + (odds[sb] if sb != sa else 0.0))


def _threat(existing: list[Threat], gone: int, extra: float) -> float:
    """The best pair left for the next player: an existing one not touching ``gone``
    (cells changed or emptied) or one of ``extra``'s worth."""
    for worth, cells in existing:
        if not cells & gone:
            return max(worth, extra)
    return extra


def _after(new: list[NewPair], existing: list[Threat], changed: int) -> float:
    """A flip or swap's value given its new pairs (points, cell mask, weight) (L7).

    With new pairs the seat must take one: the best of them net of what is left;
    without, it only leaves the grid to the next player.
    """
    if not new:
        return -_threat(existing, changed, 0.0)
    best = -float("inf")
    for points, cells, _ in new:
        rest = max((w for _, c, w in new if not c & cells), default=0.0)
        value = points + PAIR_COUNT - _threat(existing, changed | cells, rest)
        best = max(best, value)
    return best


def greedy_action(state: LonelyFaceState, seat: int, rng: random.Random) -> int:
    """The move (or the choice among new pairs, L7) for ``seat``; ties split with ``rng``."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    values = action_values(state, seat, rng)
    best_value = max(values.values())
    best = [a for a in legal if values[a] >= best_value - 1e-9]
    return best[0] if len(best) == 1 else std_choice(rng, best)


def action_values(state: LonelyFaceState, seat: int, rng: random.Random) -> dict[int, float]:
    """Every legal move's worth under the heuristics above: what search ranks moves by."""
    legal = state.legal_actions(seat)
    g = state.grid  # public
    odds = _suit_odds(state)
    existing: list[Threat] = []
    for a, b in EDGES:
        ca, cb = g[a], g[b]
        if ca and cb and PAIR[ca << 6 | cb]:
            w = _weight(ca, cb, odds)
            if w > 0.0:
                existing.append((w, 1 << a | 1 << b))
    existing.sort(reverse=True)

    values: dict[int, float] = {}
    for action in legal:
        if TAKE <= action < SWAP:
            x, y = EDGES[action - TAKE]
            cells = 1 << x | 1 << y
            value = SCORE[g[x] << 6 | g[y]] + PAIR_COUNT - _threat(existing, cells, 0.0)
        elif action >= SWAP:
            c = (action - SWAP) >> 4  # the seat's own hand card
            x = action & 15
            new: list[NewPair] = [
                (SCORE[c << 6 | g[z]], 1 << x | 1 << z, _weight(c, g[z], odds))
                for z, _ in NBT[x]
                if PAIR[c << 6 | g[z]]
            ]
            value = _after(new, existing, 1 << x) + HAND_WORTH[g[x]] - HAND_WORTH[c]
        elif action >= FLIP:
            e = action - FLIP
            x, y = EDGES[e]
            cx, cy = g[x], g[y]
            sx, sy = FLIP_SIDES[e]
            new = [
                (SCORE[cy << 6 | g[z]], 1 << x | 1 << z, _weight(cy, g[z], odds))
                for z, _ in sx
                if PAIR[cy << 6 | g[z]]
            ]
            new += [
                (SCORE[cx << 6 | g[w]], 1 << y | 1 << w, _weight(cx, g[w], odds))
                for w, _ in sy
                if PAIR[cx << 6 | g[w]]
            ]
            changed = 1 << x | 1 << y
            if new:
                value = _after(new, existing, changed)
            else:
                # The flipped edge keeps its two cards: still a pair if it was one.
                kept = _weight(cx, cy, odds) if PAIR[cx << 6 | cy] else 0.0
                value = -_threat(existing, changed, kept)
        else:  # pass (L5d): only when nothing else is legal
            value = -_threat(existing, 0, 0.0)
        values[action] = value
    return values


_NO_TIES: Final = random.Random(0)
"""``action_values`` splits no ties, so the estimate needs no generator of its own."""


def expected_scores(state: LonelyFaceState) -> list[float]:
    """Every seat's guess of its final score: points, hand cards, and the move now due.

    The points so far (L10), plus what each hand's cards are worth for later pairs
    (``HAND_WORTH``), plus, for the seat to move, its best move's worth under the
    heuristics above when that is positive (its turn suit is already turned, L4). A
    finished game's estimate is its scores. Reads what ``action_values`` reads and
    the hands; search hands it a sampled deal, so another seat's hand is a sample.
    """
    out = [float(p) for p in state.points]
    if state.phase == OVER:
        return out
    for s, hand in enumerate(state.hands):
        for c in hand:
            out[s] += ESTIMATE_WORTH[c]
    seat = state.cur
    best = max(action_values(state, seat, _NO_TIES).values(), default=0.0)
    if best > 0.0:
        out[seat] += best
    return out


def search_guidance() -> dict[str, str]:
    """The expert's search settings for Lonely Face beside the common ones (``GUIDED``).

    Progressive widening (``widen=0.5``): below the root the searching seat's own
    later moves start with the greedy move and add others only as visits grow, so
    the few dozen deals each root move gets are not spent exploring poor follow-ups
    (docs/strength.md, "Lonely Face: the expert at 70%?").
    """
    return {"widen": "0.5"}
