"""Precomputed tables for Lonely Face: the 4×4 grid's geometry, pairs, scores, action codes.

The hot path (legal actions, new pairs, the end test of L9) only indexes these
tables, so nothing about the grid's shape or the pair rule is recomputed per move.
Cells are numbered 0..15 in reading order; cell ``i`` is row ``i // 4`` (1 at the
top), column ``i % 4`` (a at the left), named like ``b2``.
"""

from __future__ import annotations

from typing import Final

from decklab import cards

SIZE: Final = 4
CELLS: Final = SIZE * SIZE
FULL: Final = (1 << CELLS) - 1
"""The bit mask of a grid with every cell filled."""

CELL_NAMES: Final[tuple[str, ...]] = tuple(
    f"{'abcd'[i % SIZE]}{i // SIZE + 1}" for i in range(CELLS)
)
CELL_OF: Final[dict[str, int]] = {name: i for i, name in enumerate(CELL_NAMES)}


def _neighbours(i: int) -> tuple[int, ...]:
    r, c = divmod(i, SIZE)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < SIZE and 0 <= cc < SIZE:
            out.append(rr * SIZE + cc)
    return tuple(out)


NB: Final[tuple[tuple[int, ...], ...]] = tuple(_neighbours(i) for i in range(CELLS))
"""Orthogonal neighbours of each cell (L6), in reading order."""

EDGES: Final[tuple[tuple[int, int], ...]] = tuple(
    (a, b) for a in range(CELLS) for b in NB[a] if a < b
)
"""Every pair of orthogonally adjacent cells, lower cell first, in reading order: 24 edges."""

EDGE_OF: Final[dict[tuple[int, int], int]] = {}
for _e, (_a, _b) in enumerate(EDGES):
    EDGE_OF[(_a, _b)] = _e
    EDGE_OF[(_b, _a)] = _e

NBE: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((j, EDGE_OF[(i, j)]) for j in NB[i]) for i in range(CELLS)
)
"""Each cell's neighbours with the edge that joins them: ``(neighbour, edge)``."""

# ------------------------------------------------------------------ action codes
PASS: Final = 0
FLIP: Final = 1
"""``FLIP + edge``: exchange the two cards of an edge (L5a)."""
TAKE: Final = 32
"""``TAKE + edge``: take the pair on an edge (L5c, or the follow-up choice of L7)."""
SWAP: Final = 64
"""``SWAP + card * 16 + cell``: a hand card for a grid card (L5b)."""
NUM_EDGES: Final = len(EDGES)
EDGE_MASK: Final[list[int]] = [1 << a if b == a + 1 else 1 << (16 + a) for a, b in EDGES]
"""Edge e's bit in a mask of horizontal edges (bit a: cells a, a+1) joined with vertical
ones shifted up by 16 (bit 16 + a: cells a, a+4): a legality test is one and."""

# The take actions of the pairs a flip of edge (x, y) may create, looked up before
# the flip is made: first x's other neighbours (which the card from y will meet),
# then y's other neighbours (which the card from x will meet). The flipped edge itself holds the same two cards as before,
# so it is never a new pair (L7); and in a square grid two neighbours of one
# cell are never adjacent, so every pair found this way is new.
FLIP_SIDES: Final[tuple[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]], ...]] = (
    tuple(
        (
            tuple((z, TAKE + EDGE_OF[(a, z)]) for z in NB[a] if z != b),
            tuple((w, TAKE + EDGE_OF[(b, w)]) for w in NB[b] if w != a),
        )
        for a, b in EDGES
    )
)
NB_MASK: Final[list[int]] = [sum(1 << j for j in NB[i]) for i in range(CELLS)]
"""``NB_MASK[i]``: the bit mask of cell i's orthogonal neighbours."""
SIDE_X: Final[list[int]] = [NB_MASK[a] & ~(1 << b) for a, b in EDGES]
"""``SIDE_X[e]``: the cells that the card flipped onto edge e's first cell meets
(that cell's neighbours but the edge's other cell), as ``FLIP_SIDES[e][0]``."""
SIDE_Y: Final[list[int]] = [NB_MASK[b] & ~(1 << a) for a, b in EDGES]
"""``SIDE_Y[e]``: the same for the edge's second cell, as ``FLIP_SIDES[e][1]``."""
NBT: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((j, TAKE + e) for j, e in NBE[i]) for i in range(CELLS)
)
"""Each cell's neighbours with the take action of their edge."""

# ------------------------------------------------------------------ cards
DECK: Final[tuple[int, ...]] = tuple(cards.deck())
"""The 52 standard cards (a main deck and a turn deck are each one of these, L1)."""
DECK_SET: Final = frozenset(DECK)
STR: Final[list[str]] = ["--"] * 64
"""``STR[c]``: the K1 text of card c (a list lookup is much cheaper than formatting)."""
for _c in DECK:
    STR[_c] = cards.to_str(_c)


def is_pair(a: int, b: int) -> bool:
    """L6 (on cards): both face cards (K2), or both of one suit."""
    return (a >> 4) == (b >> 4) or (cards.is_face(a) and cards.is_face(b))


def pair_points(a: int, b: int) -> int:
    """L10: two face cards 3 whatever the suits; else two hearts 1, two spades −1, else 0."""
    if cards.is_face(a) and cards.is_face(b):
        return 3
    suit = a >> 4
    if suit == cards.HEARTS:
        return 1
    if suit == cards.SPADES:
        return -1
    return 0


PAIR: Final[list[bool]] = [False] * 4096
"""``PAIR[a << 6 | b]``: cards a and b make a pair. Index 0 (an empty cell) never pairs."""
SCORE: Final[list[int]] = [0] * 4096
for _x in DECK:
    for _y in DECK:
        if _x != _y and is_pair(_x, _y):
            PAIR[_x << 6 | _y] = True
            SCORE[_x << 6 | _y] = pair_points(_x, _y)

SWAP_ALL: Final[list[list[int]]] = [[SWAP + c * 16 + i for i in range(CELLS)] for c in range(64)]
"""``SWAP_ALL[c]``: hand card c's swaps with a full grid (a list by card: no hashing)."""

SUIT_MASK: Final[list[int]] = [0] * 4
"""Bit ``c`` set for every card ``c`` of the suit (cards are < 64, so one int holds a set)."""
FACE_MASK: Final[list[int]] = [0] * 4
"""The same for the suit's J, Q and K."""
for _c in DECK:
    SUIT_MASK[_c >> 4] |= 1 << _c
    if cards.is_face(_c):
        FACE_MASK[_c >> 4] |= 1 << _c

HIGH: Final[list[int]] = [
    (14 if c & 15 == cards.ACE else c & 15) if c in DECK_SET else 0 for c in range(64)
]
"""``HIGH[c]``, L3's start draw: 2 lowest … K, A highest; suits do not matter."""

DIE: Final = (cards.HEARTS, cards.HEARTS, cards.SPADES, cards.SPADES, cards.CLUBS, cards.DIAMONDS)
"""L1: the suit die's six faces."""

# ------------------------------------------------------------------ bit-parallel edges
# With the grid as 16-bit masks (bit i = cell i), the edges of a kind are found with
# a few integer operations: bit i of ``m & (m >> 1) & RIGHT`` says cells i and i+1
# (same row) both have the property, bit i of ``m & (m >> 4) & DOWN`` says cells i and
# i+4 both have it. The tables below turn such edge masks into action lists (lists, so
# that a turn's legal list is one concatenation; they are shared and never changed).
RIGHT: Final = 0x7777
"""Cells with a right-hand neighbour (columns a–c)."""
DOWN: Final = 0x0FFF
"""Cells with a neighbour below (rows 1–3)."""
LEFT: Final = 0xEEEE
"""Cells with a left-hand neighbour (columns b–d)."""


def _edge_table(span: int, step: int, base: int) -> list[list[int]]:
    """``table[m]``: the actions ``base + edge`` of edges (i, i+step), i the set bits of m ⊆ span."""
    none: list[int] = []
    table = [none] * (span + 1)
    sub = span
    while sub:
        table[sub] = [base + EDGE_OF[(i, i + step)] for i in range(CELLS) if sub >> i & 1]
        sub = (sub - 1) & span
    return table


FLIPS_RIGHT: Final = _edge_table(RIGHT, 1, FLIP)
FLIPS_DOWN: Final = _edge_table(DOWN, SIZE, FLIP)
TAKES_RIGHT: Final = _edge_table(RIGHT, 1, TAKE)
TAKES_DOWN: Final = _edge_table(DOWN, SIZE, TAKE)
FACE_CARD: Final[list[bool]] = [False] * 64
for _c in DECK:
    FACE_CARD[_c] = cards.is_face(_c)
BITS8: Final[list[list[int]]] = [[i for i in range(8) if b >> i & 1] for b in range(256)]
"""``BITS8[b]``: the set bits of byte b, lowest first (a mask's cells without testing each)."""
