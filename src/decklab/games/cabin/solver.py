"""The clairvoyant solver of The Cabin by the Sea: the fewest squid points a deal allows.

It reads the true state, every hidden card included, so it is an *analysis* tool
(the bound a fair player is measured against, and the inner loop of the fair
``expert`` bot on sampled deals), never an opponent by itself.

The search is an exact depth-first branch-and-bound over *turns*: one node is the
start of a turn (a sea card turned, or the sea empty and a pile to take from),
one move is a whole turn (build the sea card; or anchor it, take a card and
place it; or take and place). What makes it exact at a few deals a second:

* **Canonical positions.** The future depends on the piles (indices into the
  deal, the deep sea and the dumped cards as bit sets of sea positions, since
  they are only ever pushed in sea order) and on the stacks only through which
  remaining cards each stack still accepts. A stack's top is replaced by the
  highest *remaining* card of its suit at or below it (same cards accepted), a
  stack that accepts nothing more is "dead" whatever its suit, and stack order
  is forgotten. A transposition table keyed on that holds exact values and
  lower bounds.
* **Dominance.** Of the stacks that take a card, only the tightest (highest
  top) need be tried, besides a new stack: a lower top accepts everything a
  higher one does, and with the same number of stacks a position whose tops are
  pointwise no higher is never worse, even with forced builds. Once all stacks
  exist and the sea is empty, a pile top that fits nowhere is taken at once
  (it is lost whenever it is taken), and so is one that fits its tightest stack
  with no remaining card of its suit in between (building it costs nothing).
  These two are *not* used while a new stack can be started: a forced build
  into a free slot can hurt, so an extra free slot is not always better.
* **Admissible bound: a relaxation solved exactly.** Per suit and per pile, the
  pile's cards of that suit must climb the suit's stacks in the pile's own order
  (sea cards may also be anchored: they then come back last-first, before the
  deep sea's own cards), and the free slots are shared out among the suits at
  best. Any real line, cut down to one pile and one suit, is a line of that
  relaxed game, so its losses bound the real ones from below. The relaxed games
  are tiny and memoised across positions and deals.
* **Bound-driven deepening.** A beam search gives a good line (the upper bound);
  then the search asks "is a score of at most L possible?" for L rising from the
  root's bound until it is answered yes or L meets the beam's score. Failed
  questions leave lower bounds in the table, so each round prunes harder.

What it does not capture is time across piles (a card deep in the cabin cannot
come before the sea cards turned while it is dug out), which is where the
remaining search effort goes; a node limit turns the answer into the best line
found with ``exact=False``.
"""

from __future__ import annotations

import gc
import heapq
from dataclasses import dataclass
from typing import Final

from decklab.games.cabin.state import (
    _HIGH,
    _POINTS,
    ANCHOR,
    ANCHOR_BEACH,
    ANCHOR_CABIN,
    DUMP,
    NEW,
    PLACE,
    SEA,
    TAKE_BEACH,
    TAKE_CABIN,
    TAKE_DEEP,
    CabinState,
)

# ------------------------------------------------------------ bit tables
# A remaining card is one bit at ``_HIGH[card] - 1`` (its key, suit << 4 | rank with
# an ace at 14, less one), so "cards of suit s that a stack with top key k accepts" is
# a shift and a mask: the bits from ``k`` up. Less one because the ace of the last suit
# would otherwise sit at bit 62, beyond the 62 bits an unboxed int holds compiled
# (mypyc), and every set holding it would be a heap-allocated big integer.
_SUIT_BITS: Final = [sum(1 << ((s << 4 | r) - 1) for r in range(2, 15)) for s in range(4)]
_DEAD: Final = -1
"""Canonical key of a stack that accepts no remaining card (its suit no longer matters)."""

# Turn kinds (what is done with the sea card or which pile is taken from) …
K_BUILD: Final = 0
K_CABIN: Final = 1
K_BEACH: Final = 2
K_DUMP: Final = 3
K_SINK: Final = 4
K_DEEP: Final = 5
K_TBEACH: Final = 6
K_TCABIN: Final = 7
K_PLACE: Final = 8
# … and where the card taken or built goes.
P_TIGHT: Final = 0
P_NEW: Final = 1
P_LOST: Final = 2
P_NONE: Final = 3
_INF: Final = 1 << 20


_SUIT_COST: Final = [sum(1 + (r >= 9) for r in range(13) if m >> r & 1) for m in range(1 << 13)]
"""Squid points of a set of one suit's cards, by its 13 bits (two at bit 0, ace at bit 12)."""


def _cost(mask: int, suit: int) -> int:
    """Squid points of the cards in a bit set of ``suit``'s cards only. A table, not
    ``int.bit_count()``: compiled, that is a generic method call on a boxed int."""
    return _SUIT_COST[(mask >> (suit << 4 | 1)) & 0x1FFF]


class SearchLimit(Exception):
    """The node budget ran out (the search is then not exact)."""


@dataclass
class Solution:
    """The best result the solver found from a position.

    ``score`` counts the squid points already lost; ``actions`` is the line of
    action ints from the position that reaches it; ``exact`` is False only when a
    node limit stopped the search (``score`` is then the best line found, an
    upper bound, and ``lower`` what was proven).
    """

    score: int
    actions: list[int]
    nodes: int
    exact: bool = True
    lower: int = 0


# ------------------------------------------------------------ the relaxation
# The lower bound solves, exactly, a relaxed game per suit and per pile: each pile's
# cards of one suit must go up the stacks of that suit in the pile's own order, but
# the piles no longer wait for each other, and cards of other suits cost nothing.
# Every real line restricted to one pile and one suit is a line of that relaxed game
# (the stacks are only lower there, since the other piles' cards are missing), so
# its losses are a lower bound, and they add up over piles; the free slots are then
# shared out among the suits. Ranks here: 2..13 as such, an ace 1 (it may start a
# stack low or close one high), a stack top 0 for a fresh stack.

_RANK_POINTS: Final = [2] + [2] + [1] * 9 + [2, 2, 2, 2]
"""Squid points by rank 0..14 (an ace is 1 or 14), C5."""

_PILE_MEMO: Final[dict[tuple[int, int], int]] = {}
_SEA_MEMO: Final[dict[tuple[int, int, int, int], int]] = {}
_MEMO_CAP: Final = 400_000
"""The relaxation memos are shared by every deal (the same small sequences recur); past
this many entries they are cleared so that memory stays bounded."""

# The relaxed games work on ints, not tuples (the memo keys are then tuples of ints, cheap
# to hash and compare, and a move is a few arithmetic steps, not a list rebuilt and sorted):
# * a sequence of ranks is base-16 digits, its first rank the lowest digit (ranks are
#   never 0, so 0 is the empty sequence);
# * a multiset of stack tops is a count per top: ranks 1..13 a four-bit count at bits
#   4r..4r+3 (at most 9 stacks share one: the suit's own 8 and the card built), fresh
#   stacks (top 0) a five-bit count from bit 56 (up to 8 new ones besides the suit's own
#   8). A top of 14 (an ace closing a stack high) takes nothing more and is left out.
_FRESH: Final = 1 << 56
"""One fresh stack (top 0) in a packed multiset of tops."""


def _pack_tops(tops: list[int] | tuple[int, ...]) -> int:
    """The packed multiset of the stack tops ``tops`` (ranks 0..14)."""
    packed = 0
    for t in tops:
        if t == 0:
            packed += _FRESH
        elif t < 14:
            packed += 1 << 4 * t
    return packed


def _place(x: int, tops: int) -> list[int]:
    """The stack tops (packed) after card rank ``x`` goes up a stack: on the tightest one
    (the highest top below it; an ace then closes it at 14), and for an ace also low on a
    fresh stack."""
    out = []
    below = tops & ((1 << 4 * (14 if x == 1 else x)) - 1)  # tops 1 .. x - 1 (bits 0-3 unused)
    if below:
        after = tops - (1 << 4 * ((below.bit_length() - 1) >> 2))
    elif tops >= _FRESH:
        after = tops - _FRESH
    else:
        after = -1
    if after >= 0:
        out.append(after if x == 1 else after + (1 << 4 * x))
    if x == 1 and tops >= _FRESH:
        out.append(tops - _FRESH + (1 << 4))
    return out


def _digits(seq: int) -> int:
    """How many ranks a packed sequence holds."""
    return (seq.bit_length() + 3) >> 2


def pile_loss(seq: int, tops: int) -> int:
    """Fewest points lost when the ranks ``seq`` come in this order onto stacks with
    ``tops``, each either built on the tightest stack or lost (both packed, see above)."""
    if not seq:
        return 0
    key = (seq, tops)
    got = _PILE_MEMO.get(key)
    if got is not None:
        return got
    x = seq & 15
    rest = seq >> 4
    best = _RANK_POINTS[x] + pile_loss(rest, tops)
    for after in _place(x, tops):
        if best == 0:
            break
        v = pile_loss(rest, after)
        if v < best:
            best = v
    _PILE_MEMO[key] = best
    return best


def sea_loss(sea: int, later: int, deep: int, tops: int) -> int:
    """Fewest points lost from the sea's and the deep sea's cards of one suit: each sea
    card is built as it comes or anchored; anchored ones come back, last first, before
    the deep sea's own cards (``later`` holds those anchored so far, last first; all
    packed, see above)."""
    if not sea:
        return pile_loss(later | deep << 4 * _digits(later), tops)
    key = (sea, later, deep, tops)
    got = _SEA_MEMO.get(key)
    if got is not None:
        return got
    x = sea & 15
    rest = sea >> 4
    best = sea_loss(rest, later << 4 | x, deep, tops)
    if best:
        for after in _place(x, tops):
            v = sea_loss(rest, later, deep, after)
            if v < best:
                best = v
                if not v:
                    break
    _SEA_MEMO[key] = best
    return best


def _by_suit(pile: tuple[int, ...] | list[int]) -> list[int]:
    """A pile's ranks split by suit, in the pile's order (an ace as 1), packed (see above)."""
    out = [0, 0, 0, 0]
    width = [0, 0, 0, 0]
    for c in pile:
        s = c >> 4
        out[s] |= (c & 15) << width[s]
        width[s] += 4
    return out


class Node:
    """A turn start: sea index, cabin index, beach index, dumped-cards set, base deep count,
    anchored set, canonical stack tops (sorted), remaining cards, the node's table key, and
    its tops' id.

    A class, not a tuple: compiled (mypyc), its fields are native words inside one object,
    where a tuple boxes every int each time a node goes into a list of moves and unboxes
    them all again when it comes out (a large share of the compiled search's time)."""

    __slots__ = ("bi", "ci", "dm", "dn", "i", "key", "rem", "tid", "tops", "xm")

    def __init__(
        self,
        i: int,
        ci: int,
        bi: int,
        xm: int,
        dn: int,
        dm: int,
        tops: tuple[int, ...],
        rem: int,
        key: int,
        tid: int,
    ) -> None:
        self.i = i
        self.ci = ci
        self.bi = bi
        self.xm = xm
        self.dn = dn
        self.dm = dm
        self.tops = tops
        self.rem = rem
        self.key = key
        self.tid = tid
        """The tops' index among the search's distinct canonical tops (see Search.canon)."""


Key = int
"""A node without its remaining cards (which the rest determines), packed into one int by
:meth:`Search.canon`: the table's key. An int hashes and compares far faster than the
tuple of seven fields (one of them a tuple) it stands for, which was most of the search's
time."""
_INDEX_BITS: Final = 6
"""Bits of each pile index in a key (a pile holds fewer than 64 of the 52 cards)."""
_LOW_BITS: Final = 4 * _INDEX_BITS
_TOP_BITS: Final = 7
"""Bits of each canonical stack top in a key, stored as top + 2 (never 0, tops >= -1)."""
_MOVE_BITS: Final = 6
"""A table entry is ``value << _MOVE_BITS | (move code + 1)``: move codes are below 63."""
_MOVE_MASK: Final = (1 << _MOVE_BITS) - 1
_KID_BITS: Final = 4
"""Bits of a move's index among a node's moves when they are ranked: there are at most 8."""
_KID_MASK: Final = (1 << _KID_BITS) - 1


class Search:
    """One deal's piles as seen from a root position, with its transposition table.

    Piles are tuples in the order the cards come off: ``sea`` (the turned card
    first), ``cabin`` and ``beach`` top first, ``deep`` bottom first (the cards
    already there at the root). Cards anchored or dumped later are bit sets of
    sea positions.
    """

    def __init__(
        self,
        sea: tuple[int, ...],
        cabin: tuple[int, ...],
        beach: tuple[int, ...],
        deep: tuple[int, ...],
        max_stacks: int,
        beach_dump: bool,
        node_limit: int | None = None,
    ) -> None:
        self.sea = sea
        self.cabin = cabin
        self.beach = beach
        self.deep = deep
        self.max_stacks = max_stacks
        self.beach_dump = beach_dump
        self.table: dict[Key, int] = {}
        """Key → value or lower bound, and best move code (-1 when only a lower bound),
        packed as ``value << _MOVE_BITS | (code + 1)`` (see :func:`_entry`)."""
        if max(len(sea), len(cabin), len(beach), len(deep)) >= 1 << _INDEX_BITS:
            raise ValueError("a pile is too long for the solver's packed keys")
        if max_stacks > 8:
            raise ValueError("more than 8 stacks do not fit the relaxation's packed stack tops")
        self._set_count = 2 if beach_dump else 1
        """How many sets of sea positions a key holds: the dumped one only with beach_dump."""
        self._tops_ids: dict[int, int] = {}
        self._tops: list[tuple[int, ...]] = []
        self._mines: list[list[int]] = []
        self.nodes = 0
        self.limit = node_limit if node_limit is not None else _INF * _INF
        # one suit's cards of a pile, as a small int (cheap to hash) standing for the ranks
        self._seqs: list[int] = []
        self._seq_ids: dict[int, int] = {}
        # filled on demand: a sampled deal in the expert may need only a few of them
        self._cabin_ids: list[tuple[int, ...] | None] = [None] * (len(cabin) + 1)
        self._beach_ids: list[tuple[int, ...] | None] = [None] * (len(beach) + 1)
        self._sea_ids: list[tuple[int, ...] | None] = [None] * (len(sea) + 1)
        self._deep_ids: dict[int, tuple[int, ...]] = {}
        # a pile state's four suit combinations (ids into _combo_seqs: one suit's sequences
        # in the four piles), and per combination its rows by the suit's stack tops (see
        # lower_bound)
        self._pile_combos: dict[int, list[int]] = {}
        self._combo_ids: dict[tuple[int, int, int, int], int] = {}
        self._combo_seqs: list[tuple[int, int, int, int]] = []
        self._combo_rows: list[dict[int, list[int]]] = []
        if len(_PILE_MEMO) > _MEMO_CAP:
            _PILE_MEMO.clear()
        if len(_SEA_MEMO) > _MEMO_CAP:
            _SEA_MEMO.clear()

    # ---------------------------------------------------------- positions
    @classmethod
    def from_state(cls, state: CabinState, node_limit: int | None = None) -> Search:
        """The piles of ``state`` (true cards: this is where clairvoyance comes in)."""
        sea = state.sea[::-1]
        if state.phase == SEA:
            sea.insert(0, state.pending)
        return cls(
            tuple(sea),
            tuple(state.cabin[::-1]),
            tuple(state.beach[::-1]),
            tuple(state.deep),
            state.max_stacks,
            state.beach_dump,
            node_limit,
        )

    def root(self, keys: list[int] | tuple[int, ...], placing: int = -1) -> Node:
        """The turn start with stack tops ``keys`` (the engine's), and ``placing``, a taken
        card still to place (a PLACE state), among the remaining cards."""
        rem = 0
        for pile in (self.sea, self.cabin, self.beach, self.deep):
            for c in pile:
                rem |= 1 << (_HIGH[c] - 1)
        if placing >= 0:
            rem |= 1 << (_HIGH[placing] - 1)
        return self.canon(0, 0, 0, 0, len(self.deep), 0, tuple(keys), rem)

    def canon(
        self, i: int, ci: int, bi: int, xm: int, dn: int, dm: int, tops: tuple[int, ...], rem: int
    ) -> Node:
        """The position with its stack tops in canonical form (see the module docstring)."""
        out: list[int] = []
        # a live top's canonical form stays in its suit's range of keys and never passes
        # another top of its suit, so sorted tops (a child's, but for a new stack at the
        # end or a stack that died) stay sorted: the sort is skipped then
        ordered = True
        last = _DEAD
        for k in tops:
            if k < 0:
                out.append(_DEAD)
                ordered = ordered and last == _DEAD
                continue
            m = rem & _SUIT_BITS[k >> 4]
            if not m >> k:  # no remaining card above k (bits from k up: keys above k)
                out.append(_DEAD)
                ordered = ordered and last == _DEAD
                continue
            below = m & ((1 << k) - 1)  # keys at most k; the highest one's bit is its key - 1
            v = below.bit_length() if below else k & ~15
            if v < last:
                ordered = False
            last = v
            out.append(v)
        if not ordered:
            out.sort()
        # the tops (sorted, so a sequence of nonzero digits) as one int, at most 56 bits, and
        # that as a small id: the key is then the id above the piles' fields, which fits the
        # 62 bits of an unboxed int compiled unless the ids or the sea run long (a longer
        # key is a heap integer: slower, never wrong); the tops' tuple is shared too
        packed = 0
        for k in out:
            packed = packed << _TOP_BITS | (k + 2)
        tid = self._tops_ids.get(packed)
        if tid is None:
            tid = self._tops_ids[packed] = len(self._tops)
            self._tops.append(tuple(out))
            # per suit, its stack tops as base-16 digits (rank + 1), for lower_bound
            mines = [0, 0, 0, 0]
            for k in out:
                if k >= 0:  # (a dead stack, -1, belongs to no suit)
                    mines[k >> 4] = mines[k >> 4] << 4 | ((k & 15) + 1)
            self._mines.append(mines)
        # the piles' fields take _LOW_BITS + i bits (+ i more for the dumped set): a
        # width the low bits tell, so the key stands for one position only
        width = _LOW_BITS + i * self._set_count
        key = tid << width | self._pile_key(i, ci, bi, xm, dn, dm)
        # a dict finds an int key by its low bits, here the four indices, which take few
        # values: folding the higher fields onto them (``k ^ k >> b`` is one-to-one)
        # spreads the keys, and spares the table long chains of probes
        key ^= key >> _LOW_BITS
        return Node(i, ci, bi, xm, dn, dm, self._tops[tid], rem, key, tid)

    def _pop_order(self, mask: int) -> list[int]:
        """The sea cards of a bit set of sea positions, last pushed (first to come off) first."""
        out = []
        while mask:
            top = mask.bit_length() - 1
            out.append(self.sea[top])
            mask ^= 1 << top
        return out

    def _ids(self, pile: tuple[int, ...] | list[int]) -> tuple[int, ...]:
        """The ids of a pile's four suit sequences (ranks in pile order, an ace as 1)."""
        out = []
        for seq in _by_suit(pile):
            got = self._seq_ids.get(seq)
            if got is None:
                got = self._seq_ids[seq] = len(self._seqs)
                self._seqs.append(seq)
            out.append(got)
        return tuple(out)

    def lower_bound(self, node: Node) -> int:
        """Squid points no play can save from ``node``: the per-suit, per-pile relaxation
        (see above) with the free slots shared out among the suits as well as can be."""
        i, ci, bi, xm, dn, dm = node.i, node.ci, node.bi, node.xm, node.dn, node.dm
        tops, rem = node.tops, node.rem
        if not rem:
            return 0
        # the piles' four suit sequences, as one id per suit, are the same for every node
        # of a pile state (most nodes differ from another only in their stacks)
        pile = self._pile_key(i, ci, bi, xm, dn, dm)
        pile ^= pile >> _LOW_BITS  # (spread, as in canon)
        combos = self._pile_combos.get(pile)
        if combos is None:
            combos = self._pile_combos[pile] = self._combos_of(i, ci, bi, xm, dn, dm)
        free = self.max_stacks - len(tops)
        mines = self._mines[node.tid]
        combo_rows = self._combo_rows
        total = 0
        need = []
        for s in range(4):
            if not rem & _SUIT_BITS[s]:
                continue
            mine = mines[s]
            # the suit's rows by its pile sequences (a list index), then by its stack tops:
            # a small int key, which hashes and compares without boxing (a tuple key of
            # five ints was one of the search's largest costs)
            combo = combos[s]
            rows = combo_rows[combo]
            row = rows.get(mine)
            if row is None:
                code = mine
                base = []
                while code:
                    base.append((code & 15) - 1)
                    code >>= 4
                seqs = self._seqs
                cabin, beach, sea, deep = self._combo_seqs[combo]
                row = rows[mine] = self._row(
                    seqs[cabin], seqs[beach], seqs[sea], seqs[deep], _pack_tops(base)
                )
            if len(row) == 1:  # no loss even without a new stack
                continue
            if not free:
                total += row[0]
            else:
                need.append(row)
        if not need:
            return total
        if len(need) == 1:
            row = need[0]
            return total + row[free if free < len(row) else -1]
        # share the free slots: by slots used, the fewest points lost so far; one list
        # updated in place, most slots used first (each entry then reads only entries of
        # the rows before), not a new list per row
        best = [0] + [_INF] * free
        for row in need:
            width = len(row)
            for used in range(free, -1, -1):
                low = _INF
                for k in range(used + 1 if used < width else width):
                    have = best[used - k]
                    if have < _INF and have + row[k] < low:
                        low = have + row[k]
                best[used] = low
        least = _INF  # (a loop, not min(): compiled, that is a generic call)
        for v in best:
            if v < least:
                least = v
        return total + least

    def _pile_key(self, i: int, ci: int, bi: int, xm: int, dn: int, dm: int) -> int:
        """The piles of a position as one int: the four indices in the low bits, then the
        anchored set in ``i`` bits (its positions are below ``i``), then the dumped set."""
        return (xm << i | dm) << _LOW_BITS | (i << 18 | ci << 12 | bi << 6 | dn)

    def _combos_of(self, i: int, ci: int, bi: int, xm: int, dn: int, dm: int) -> list[int]:
        """Per suit, the id of the piles' four sequences of that suit (see :meth:`_ids`)."""
        deep_key = dm << _INDEX_BITS | dn
        deep = self._deep_ids.get(deep_key)
        if deep is None:
            deep = self._ids(self._pop_order(dm) + list(self.deep[dn - 1 :: -1] if dn else ()))
            self._deep_ids[deep_key] = deep
        if xm:
            beach = self._ids(self._pop_order(xm) + list(self.beach[bi:]))
        else:
            got = self._beach_ids[bi]
            if got is None:
                got = self._beach_ids[bi] = self._ids(self.beach[bi:])
            beach = got
        got = self._cabin_ids[ci]
        if got is None:
            got = self._cabin_ids[ci] = self._ids(self.cabin[ci:])
        cabin = got
        got = self._sea_ids[i]
        if got is None:
            got = self._sea_ids[i] = self._ids(self.sea[i:])
        sea = got
        out = []
        for s in range(4):
            seqs = (cabin[s], beach[s], sea[s], deep[s])
            combo = self._combo_ids.get(seqs)
            if combo is None:
                combo = self._combo_ids[seqs] = len(self._combo_seqs)
                self._combo_seqs.append(seqs)
                self._combo_rows.append({})
            out.append(combo)
        return out

    def _row(
        self,
        cabin: int,
        beach: int,
        sea: int,
        deep: int,
        base: int,
    ) -> list[int]:
        """One suit's relaxed loss with 0, 1, 2, … new stacks of it, up to the first 0
        (sequences and the suit's stack tops packed, see the relaxation above)."""
        row = []
        for k in range(self.max_stacks + 1):
            stacks = base + k * _FRESH
            if self.beach_dump:
                # a dumped card may come back at almost any time: count only the
                # sea cards that fit on no stack at all
                v = 0
                rest = sea
                while rest:
                    x = rest & 15
                    if not _place(x, stacks):
                        v += _RANK_POINTS[x]
                    rest >>= 4
                v += pile_loss(deep, stacks)
            else:
                v = sea_loss(sea, 0, deep, stacks)
            v += pile_loss(cabin, stacks) + pile_loss(beach, stacks)
            row.append(v)
            if not v:
                break
        return row

    # ------------------------------------------------------------- moves
    def _places(
        self, c: int, tops: tuple[int, ...], rem: int
    ) -> list[tuple[int, int, tuple[int, ...], int, int]]:
        """Where card ``c`` may go: (place, cost, new tops, new rem, order score).

        Only the tightest stack and a new one (dominance); P_LOST if it fits nowhere.
        The order score is a cheap guess of the damage (lower is tried first).
        """
        h = _HIGH[c]
        low = h & ~15
        best = -1
        bi = -1
        for j, k in enumerate(tops):
            if low <= k < h and k > best:
                best = k
                bi = j
        bit = 1 << (h - 1)
        rem2 = rem & ~bit
        out = []
        if bi >= 0:
            # cards of the suit strictly between the top and c become unbuildable there
            gap = _cost(rem & ((bit - 1) & ~((1 << best) - 1)), h >> 4)
            # (a copy with one item set: compiled, two slices joined cost twice as much)
            lst = list(tops)
            lst[bi] = h
            out.append((P_TIGHT, 0, tuple(lst), rem2, gap * 2))
        if len(tops) < self.max_stacks:
            start = c if h & 15 != 14 else low | 1
            # a new stack accepts what lies above c; what lies below needs another
            below = rem2 & _SUIT_BITS[low >> 4] & ((1 << start) - 1)
            out.append((P_NEW, 0, (*tops, start), rem2, 3 + _cost(below, h >> 4)))
        if not out:
            out.append((P_LOST, _POINTS[c], tops, rem2, 10 * _POINTS[c]))
        return out

    def moves(self, node: Node, prune: bool = True) -> list[tuple[int, int, Node]]:
        """Every non-dominated turn from a turn start: (move code, squid cost, next turn start),
        best guess first. A move code is ``kind * 4 + place``. ``prune=False`` keeps the
        other takes when one dominates (a fair player cannot always see which)."""
        i, ci, bi, xm, dn, dm = node.i, node.ci, node.bi, node.xm, node.dn, node.dm
        tops, rem = node.tops, node.rem
        sea = self.sea
        nsea = len(sea)
        # the moves, and per move ``(order score << _MOVE_BITS | code) << _KID_BITS | its
        # index``: sorting these ints orders the moves by score, then code (unique in a
        # node), as sorting (score, code, ...) tuples would, at a fraction of the cost
        out: list[tuple[int, int, Node]] = []
        ranks: list[int] = []
        # (self.canon(...) each time, not a local ``canon = self.canon``: compiled, a bound
        # method in a variable is a generic Python call, boxing every argument)
        if i < nsea:
            c = sea[i]
            places = self._places(c, tops, rem)
            bit = 1 << i
            has_beach = bool(xm) or bi < len(self.beach)
            has_cabin = ci < len(self.cabin)
            if places[0][0] != P_LOST:
                for p, _cost0, t2, r2, score in places:
                    code = K_BUILD * 4 + p
                    ranks.append((score << _MOVE_BITS | code) << _KID_BITS | len(out))
                    out.append((code, 0, self.canon(i + 1, ci, bi, xm, dn, dm, t2, r2)))
            if has_cabin:
                x = self.cabin[ci]
                for p, cost, t2, r2, score in self._places(x, tops, rem):
                    child = self.canon(i + 1, ci + 1, bi, xm, dn, dm | bit, t2, r2)
                    code = K_CABIN * 4 + p
                    ranks.append(((score + 1) << _MOVE_BITS | code) << _KID_BITS | len(out))
                    out.append((code, cost, child))
            if has_beach:
                if xm:
                    top = xm.bit_length() - 1
                    x = sea[top]
                    xm2, bi2 = xm ^ (1 << top), bi
                else:
                    x = self.beach[bi]
                    xm2, bi2 = xm, bi + 1
                for p, cost, t2, r2, score in self._places(x, tops, rem):
                    child = self.canon(i + 1, ci, bi2, xm2, dn, dm | bit, t2, r2)
                    code = K_BEACH * 4 + p
                    ranks.append(((score + 1) << _MOVE_BITS | code) << _KID_BITS | len(out))
                    out.append((code, cost, child))
            if self.beach_dump:
                code = K_DUMP * 4 + P_NONE
                ranks.append((6 << _MOVE_BITS | code) << _KID_BITS | len(out))
                out.append((code, 0, self.canon(i + 1, ci, bi, xm | bit, dn, dm, tops, rem)))
                if places[0][0] == P_LOST and not has_cabin and not has_beach:
                    child = self.canon(i + 1, ci, bi, xm, dn, dm | bit, tops, rem)
                    code = K_SINK * 4 + P_NONE
                    ranks.append((6 << _MOVE_BITS | code) << _KID_BITS | len(out))
                    out.append((code, 0, child))
            elif places[0][0] == P_LOST and not has_cabin and not has_beach:
                # C3's last case: it sinks by itself; the turn is not a decision
                child = self.canon(i + 1, ci, bi, xm, dn, dm | bit, tops, rem)
                return [(K_SINK * 4 + P_NONE, 0, child)]
        else:
            full = prune and len(tops) >= self.max_stacks
            if dm:
                top = dm.bit_length() - 1
                x = sea[top]
                after = (i, ci, bi, xm, dn, dm ^ (1 << top))
                forced = self._take(out, ranks, K_DEEP, x, after, tops, rem, full)
                if forced is not None:
                    return [forced]
            elif dn:
                x = self.deep[dn - 1]
                forced = self._take(
                    out, ranks, K_DEEP, x, (i, ci, bi, xm, dn - 1, dm), tops, rem, full
                )
                if forced is not None:
                    return [forced]
            if xm:
                top = xm.bit_length() - 1
                x = sea[top]
                after = (i, ci, bi, xm ^ (1 << top), dn, dm)
                forced = self._take(out, ranks, K_TBEACH, x, after, tops, rem, full)
                if forced is not None:
                    return [forced]
            elif bi < len(self.beach):
                x = self.beach[bi]
                after = (i, ci, bi + 1, xm, dn, dm)
                forced = self._take(out, ranks, K_TBEACH, x, after, tops, rem, full)
                if forced is not None:
                    return [forced]
            if ci < len(self.cabin):
                x = self.cabin[ci]
                after = (i, ci + 1, bi, xm, dn, dm)
                forced = self._take(out, ranks, K_TCABIN, x, after, tops, rem, full)
                if forced is not None:
                    return [forced]
        ranks.sort()
        return [out[r & _KID_MASK] for r in ranks]

    def _take(
        self,
        out: list[tuple[int, int, Node]],
        ranks: list[int],
        kind: int,
        x: int,
        after: tuple[int, int, int, int, int, int],
        tops: tuple[int, ...],
        rem: int,
        full: bool,
    ) -> tuple[int, int, Node] | None:
        """Add the ways to take ``x`` to ``out`` (and their ranks, see :meth:`moves`); or
        return the one move that dominates all (with every stack started: ``x`` fits
        nowhere, or fits with nothing in between)."""
        i, ci, bi, xm, dn, dm = after
        places = self._places(x, tops, rem)
        if full:
            p, cost, t2, r2, score = places[0]
            if p == P_LOST or (p == P_TIGHT and score == 0):
                return (kind * 4 + p, cost, self.canon(i, ci, bi, xm, dn, dm, t2, r2))
        for p, cost, t2, r2, score in places:
            code = kind * 4 + p
            ranks.append((score << _MOVE_BITS | code) << _KID_BITS | len(out))
            out.append((code, cost, self.canon(i, ci, bi, xm, dn, dm, t2, r2)))
        return None

    # ------------------------------------------------------------ search
    def bound_of(self, node: Node) -> int:
        """The best lower bound known for ``node`` (the table's, or the relaxation's,
        which is then remembered)."""
        key = node.key
        entry = self.table.get(key)
        if entry is not None:
            return entry >> _MOVE_BITS
        lb = self.lower_bound(node)
        self.table[key] = lb << _MOVE_BITS
        return lb

    def search(self, node: Node, beta: int) -> int:
        """The fewest squid points from ``node`` if fewer than ``beta``; else a lower bound
        that is at least ``beta`` (fail-soft). Exact values are kept with their best move."""
        if not node.rem:
            return 0
        key = node.key
        table = self.table
        entry = table.get(key)
        if entry is None:
            lb = self.lower_bound(node)
        else:
            lb = entry >> _MOVE_BITS
            if entry & _MOVE_MASK:
                return lb
        if lb >= beta:
            if entry is None:
                table[key] = lb << _MOVE_BITS
            return lb
        self.nodes += 1
        if self.nodes > self.limit:
            raise SearchLimit
        # children by their lower bound first, then by the move-order guess (their index),
        # sorted as ints: bound << 8 | index
        moves = self.moves(node)
        ranked: list[int] = []
        for n in range(len(moves)):
            child = moves[n][2]
            ranked.append((moves[n][1] + self.bound_of(child)) << 8 | n)
        ranked.sort()
        best = _INF
        best_move = -1
        floor = _INF
        for r in ranked:
            low = r >> 8
            code, cost, child = moves[r & 255]
            limit = best if best < beta else beta
            if low >= limit:
                if low < floor:
                    floor = low
                break  # sorted: no later child can do better
            v = cost + self.search(child, limit - cost)
            if v < best:
                best = v
                if best < beta:
                    best_move = code
                    if best <= lb:
                        break
            if v < floor:
                floor = v
        if best < beta:
            table[key] = best << _MOVE_BITS | (best_move + 1)
            return best
        if lb > floor:
            floor = lb
        table[key] = floor << _MOVE_BITS
        return floor

    def quick_bound(self, node: Node) -> int:
        """A lower bound without searching (the table's, or the relaxation)."""
        if not node.rem:
            return 0
        return self.bound_of(node)

    def beam(self, starts: list[tuple[int, int, Node]], width: int) -> tuple[int, list[int]]:
        """A good line fast: keep the ``width`` most promising positions at each turn
        (fewest points lost so far plus the lower bound) until every card is placed.
        It gives the search its first upper bound, and often the answer."""
        layer: list[tuple[int, tuple[int, ...], Node]]
        layer = [(cost, (code,), child) for code, cost, child in starts]
        best = _INF
        best_line: tuple[int, ...] = ()
        count = 0
        while layer:
            found: dict[Key, tuple[int, int, int, tuple[int, ...], Node]] = {}
            for g, line, node in layer:
                if not node.rem:
                    if g < best:
                        best, best_line = g, line
                    continue
                for code, cost, child in self.moves(node):
                    g2 = g + cost
                    f = g2 + (self.bound_of(child) if child.rem else 0)
                    if f >= best:
                        continue
                    key = child.key
                    old = found.get(key)
                    if old is None or old[0] > f:
                        count += 1
                        found[key] = (f, count, g2, (*line, code), child)
            layer = [
                (g2, line, child)
                for _f, _n, g2, line, child in heapq.nsmallest(width, found.values())
            ]
        return best, list(best_line)

    def line(self, node: Node) -> list[int]:
        """The best moves from ``node`` as stored in the table (after a successful search)."""
        out = []
        while node.rem:
            nxt = self.moves(node)
            if len(nxt) == 1:
                code, _cost, node = nxt[0]
            else:
                code = (self.table[node.key] & _MOVE_MASK) - 1
                node = next(child for c, _cost, child in nxt if c == code)
            out.append(code)
        return out


# ------------------------------------------------------------ the engine side
def _tight_index(state: CabinState) -> int:
    """The engine's stack index of the tightest stack that takes the pending card."""
    best = -1
    best_key = -1
    for a in state.legal_actions(0):
        if a < NEW and state.keys[a] > best_key:
            best, best_key = a, state.keys[a]
    return best


def _place_action(state: CabinState, place: int) -> int:
    return _tight_index(state) if place == P_TIGHT else NEW


_KIND_ACTION: Final = {
    K_CABIN: ANCHOR_CABIN,
    K_BEACH: ANCHOR_BEACH,
    K_DUMP: DUMP,
    K_SINK: ANCHOR,
    K_DEEP: TAKE_DEEP,
    K_TBEACH: TAKE_BEACH,
    K_TCABIN: TAKE_CABIN,
}


def play_move(state: CabinState, code: int) -> list[int]:
    """Carry out a solver move on the engine state; the engine actions it took."""
    kind, place = divmod(code, 4)
    done = []
    if kind in (K_BUILD, K_PLACE):
        action = _place_action(state, place)
        state.apply(0, action)
        return [action]
    if kind == K_SINK and not state.beach_dump:
        return []  # the engine sank it by itself (C3's last case)
    action = _KIND_ACTION[kind]
    state.apply(0, action)
    done.append(action)
    if place in (P_TIGHT, P_NEW):
        action = _place_action(state, place)
        state.apply(0, action)
        done.append(action)
    return done


def root_moves(
    search: Search, node: Node, placing: int = -1, prune: bool = True
) -> list[tuple[int, int, Node]]:
    """The non-dominated moves from ``node``; with ``placing``, the places for that card
    (the rest of a PLACE state's turn), as K_PLACE moves."""
    if placing < 0:
        return search.moves(node, prune)
    i, ci, bi, xm, dn, dm = node.i, node.ci, node.bi, node.xm, node.dn, node.dm
    tops, rem = node.tops, node.rem
    out = []
    for p, cost, t2, r2, score in search._places(placing, tops, rem):
        out.append((score, K_PLACE * 4 + p, cost, search.canon(i, ci, bi, xm, dn, dm, t2, r2)))
    out.sort()
    return [(code, cost, child) for _s, code, cost, child in out]


def solve(state: CabinState, node_limit: int | None = None, beam_width: int = 4) -> Solution:
    """The fewest squid points reachable from ``state`` knowing every hidden card.

    ``score`` includes the points already lost. With ``node_limit`` the search may
    stop early: the result is then the best line found, with ``exact=False``.

    The cyclic garbage collector is paused for the solve: the search allocates
    millions of small tuples (keys, table entries) that form no cycles, and the
    collections they trigger, walking an ever larger transposition table, cost
    about a sixth of the compiled solver's time. Nothing else changes.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _solve(state, node_limit, beam_width)
    finally:
        if collecting:
            gc.enable()


def _solve(state: CabinState, node_limit: int | None, beam_width: int) -> Solution:
    if state.is_terminal():
        return Solution(state.points, [], 0)
    search = Search.from_state(state, node_limit)
    placing = state.pending if state.phase == PLACE else -1
    moves = root_moves(search, search.root(state.keys, placing), placing)
    best, best_line = search.beam(moves, beam_width)
    lower = min(cost + search.quick_bound(child) for _c, cost, child in moves)
    exact = True
    try:
        while lower < best:
            # is a score of at most ``lower`` possible? if not, the bound rises
            floor = _INF
            for code, cost, child in moves:
                budget = lower + 1 - cost
                v = cost + (search.search(child, budget) if budget > 0 else 0)
                if budget > 0 and v <= lower:
                    best, best_line = v, [code, *search.line(child)]
                    break
                floor = min(floor, max(v, lower + 1))
            else:
                lower = floor
    except SearchLimit:
        exact = False
    replay = state.clone()
    actions: list[int] = []
    for code in best_line:
        actions.extend(play_move(replay, code))
    start = state.points
    assert replay.is_terminal() and replay.points == start + best, "solver line mismatch"
    return Solution(start + best, actions, search.nodes, exact, start + min(lower, best))
