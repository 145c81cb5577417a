"""The seeded source of chance (K3).

A splitmix64 generator whose whole state is one integer: cloning a game state
copies it for free, which matters because search clones states millions of
times. Every chance outcome a game draws is also written into its history, so
records replay identically even if this generator ever changes.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any, Final, TypeVar

from mypy_extensions import i64

T = TypeVar("T")
_MASK: Final = (1 << 64) - 1
_RADIX_MAX: Final = 1 << 30
"""Shuffle digits come off X in radix products below this: a division of a big
integer by one machine digit (CPython's 30-bit digits) is its fast path."""


def _probe() -> None:
    """Only its type matters: a plain function interpreted, a native one compiled."""


NATIVE: Final = type(_probe).__name__ != "function"
"""Whether this module runs compiled (mypyc): then the generator's arithmetic is done on
native 64-bit integers, which wrap around like splitmix64's (the C compiler is given
``-fwrapv``, as for CPython itself). Interpreted, the same arithmetic is done on Python
ints and masked. Both give the same numbers (tests/test_build.py compares them)."""

# splitmix64's constants as signed 64-bit integers (their bits are the unsigned ones'),
# and masks that make the arithmetic right shifts of a signed i64 logical.


def _signed64(u: int) -> i64:
    """The signed 64-bit integer with the bits of ``u`` (0 ≤ u < 2⁶⁴).

    The constants below are made by this call, not written as literals: compiled, a
    literal beyond 62 bits is kept as a Python int and converted on every use, while
    a computed ``Final[i64]`` is a native word.
    """
    return u - (1 << 64) if u >> 63 else u


_GAMMA: Final[i64] = _signed64(0x9E3779B97F4A7C15)
_MUL1: Final[i64] = _signed64(0xBF58476D1CE4E5B9)
_MUL2: Final[i64] = _signed64(0x94D049BB133111EB)
_LOW34: Final[i64] = (1 << 34) - 1
_LOW37: Final[i64] = (1 << 37) - 1
_LOW33: Final[i64] = (1 << 33) - 1
_LOW32: Final[i64] = (1 << 32) - 1
_LOW16: Final[i64] = (1 << 16) - 1
_TWO16: Final[i64] = 1 << 16
_WORD_RADIX_MAX: Final[i64] = 1 << 47
"""The word-wise shuffle's chunk radices stay below this: a remainder shifted up by a
16-bit piece then still fits a signed 64-bit integer."""
_WORDS_MAX_ITEMS: Final = 1 << 16


class Rng:
    """splitmix64: small, fast, statistically sound for games.

    The state is one 64-bit word, ``_t``: compiled, a native signed integer holding its
    bits (so nothing is allocated per draw); interpreted, the plain unsigned value.
    :attr:`s` reads it as the unsigned number in both builds.
    """

    __slots__ = ("_t",)

    _t: i64

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        if seed >> 62 or seed < 0:  # not a small non-negative int: reduce mod 2**64
            seed &= _MASK
            if NATIVE and seed >> 63:
                seed -= 1 << 64
        self._t = seed

    @property
    def s(self) -> int:
        """The state, as the unsigned 64-bit number splitmix64 defines."""
        u: int = self._t
        return u & _MASK

    def _step(self) -> i64:
        """Compiled only: the next output as a signed i64 with splitmix64's bits."""
        s: i64 = self._t + _GAMMA
        self._t = s
        z: i64 = (s ^ ((s >> 30) & _LOW34)) * _MUL1
        z = (z ^ ((z >> 27) & _LOW37)) * _MUL2
        return z ^ ((z >> 31) & _LOW33)

    def next64(self) -> int:
        if NATIVE:
            u: int = self._step()
            return u & _MASK
        s = (self._t + 0x9E3779B97F4A7C15) & _MASK
        self._t = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (multiply-shift; bias below 2⁻⁵⁸ for card games)."""
        if NATIVE and 0 < n < _RADIX_MAX:
            # the high word of the 128-bit product, from the output's two 32-bit halves
            z = self._step()
            k: i64 = n
            hi: i64 = ((z >> 32) & _LOW32) * k
            return (hi + (((z & _LOW32) * k) >> 32)) >> 32
        return (self.next64() * n) >> 64

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates, in place, from a handful of 64-bit draws.

        Dealing is a large share of a short random playout, so instead of one
        draw per card the draws are joined into one integer X with at least
        log2(n!) + 128 bits, and the swap indices are the digits of X in the
        factorial number system: a uniform permutation to within 2⁻¹²⁸, at a
        fraction of the cost of a draw per card. (Lists only: compiled, list
        indexing is then a native operation.)

        Two ways to the same digits: interpreted, X is a Python int (its long
        division runs in C); compiled, X stays in its 64-bit words and is divided
        on native integers (:func:`_shuffle_words`), with no big-int objects made.
        """
        if NATIVE and len(items) < _WORDS_MAX_ITEMS:
            _shuffle_words(self, items)
        else:
            _shuffle_bigint(self, items)

    def copy(self) -> Rng:
        # The constructor, not ``Rng.__new__(Rng)``: compiled, ``__new__`` is a slow
        # generic call while the constructor is a native one, and search copies a
        # generator with every state it clones.
        other = Rng(0)
        other._t = self._t
        return other


def _shuffle_draws(n: int) -> int:
    """How many 64-bit draws X is made of for a shuffle of ``n`` items."""
    return (n * n.bit_length()) // 64 + 3


def _shuffle_bigint(rng: Rng, items: list[T]) -> None:
    """:meth:`Rng.shuffle` with X as one Python int (the faster way interpreted)."""
    n = len(items)
    if n < 2:
        return
    x = 0
    for _ in range(_shuffle_draws(n)):
        x = (x << 64) | rng.next64()
    # The digits come off X in chunks: one long division by the product of a run of
    # radices (i + 1, i, …, lo + 1) leaves a remainder that fits a machine word, and
    # its own digits are the same as X's (mixed radix), found with word divisions.
    i = n - 1
    while i > 0:
        lo = i
        radix = i + 1
        while lo > 1 and radix * lo < _RADIX_MAX:
            radix *= lo
            lo -= 1
        x, r = divmod(x, radix)
        i = _swap_by_digits(items, i, lo, r)


def _shuffle_words(rng: Rng, items: list[T]) -> None:
    """:meth:`Rng.shuffle` with X kept as its 64-bit words, most significant first.

    The same digits as :func:`_shuffle_bigint` (tests/test_build.py compares them on
    both builds). Each long division by a chunk's radix (below 2⁴⁷) goes through the
    words 16 bits at a time, so every intermediate value fits a native integer, and
    the chunks are larger than a Python int's one-digit divisions. Storing a word is
    the cost (a list holds it boxed), so there are few passes over the words: each
    divides by three chunks in a row (the next one's pieces are the quotient pieces of
    the one before, as they come); the first pass divides the words as they are drawn,
    most significant first, and the last one stores no quotient (nothing reads it): a
    52-card deck's six chunks are two passes, and its seven words are stored once.
    Compiled, a word is a signed i64 holding the 64 bits (the quotient's top piece
    wraps into the sign bit as the draws do); interpreted, the plain unsigned value:
    the pieces read off either are the same. (``n`` below :data:`_WORDS_MAX_ITEMS`, so
    that a radix times the next one fits a word.)
    """
    n = len(items)
    if n < 2:
        return
    count: i64 = _shuffle_draws(n)
    words: list[i64] = []  # the quotient so far, once the first pass has drawn them all
    top: i64 = 0  # words[:top] are zero: the quotient has shrunk past them
    first = True
    i: i64 = n - 1
    while i > 0:
        lo_a, ra = _chunk(i)
        lo_b, rb = _chunk(lo_a - 1)  # (a chunk past digit 1 is empty: radix 1)
        lo_c, rc = _chunk(lo_b - 1)
        last = lo_c <= 1  # no digit is left for another pass
        r_a: i64 = 0
        r_b: i64 = 0
        r_c: i64 = 0
        for k in range(top, count):
            if not first:
                w = words[k]
            elif NATIVE:
                w = rng._step()
            else:
                w = rng.next64()
            out: i64 = 0
            shift: i64 = 48
            while shift >= 0:
                cur = (r_a << 16) | ((w >> shift) & _LOW16)
                q = cur // ra
                r_a = cur - q * ra
                if rb > 1:  # an empty chunk (radix 1) would leave q as it is: skipped
                    cur = (r_b << 16) | q
                    q = cur // rb
                    r_b = cur - q * rb
                    if rc > 1:
                        cur = (r_c << 16) | q
                        q = cur // rc
                        r_c = cur - q * rc
                out = out * _TWO16 + q
                shift -= 16
            if last:
                continue  # nothing reads this pass's quotient
            if first:
                words.append(out)
            else:
                words[k] = out
        first = False
        while not last and top < count and words[top] == 0:
            top += 1
        i = _swap_by_digits(items, i, lo_a, r_a)
        i = _swap_by_digits(items, i, lo_b, r_b)
        i = _swap_by_digits(items, i, lo_c, r_c)


def _swap_by_digits(items: list[T], i: i64, lo: i64, r: i64) -> i64:
    """Fisher–Yates steps i, i − 1, …, down to ``lo`` (never below 1), each swapping
    item k with the one at digit k of ``r`` (mixed radix: digit k's radix is k + 1,
    digit i the lowest); returns the next step's index. A chunk's remainder holds its
    digits, so both ways of shuffling end here."""
    while i >= lo and i > 0:
        d = i + 1
        q = r // d
        j = r - q * d  # r % d from the one division (r is never negative)
        r = q
        items[i], items[j] = items[j], items[i]
        i -= 1
    return i


def _chunk(i: i64) -> tuple[i64, i64]:
    """The word-wise shuffle's chunk of digits that starts at digit ``i``: its last digit
    lo and its radix, the product of the radices i + 1, i, …, lo + 1, kept below
    :data:`_WORD_RADIX_MAX`; ``(i, 1)``, an empty chunk, once no digit is left (``i``
    below 1)."""
    if i < 1:
        return i, 1
    lo = i
    radix: i64 = i + 1
    while lo > 1 and radix * lo < _WORD_RADIX_MAX:
        radix *= lo
        lo -= 1
    return lo, radix


# The searches and the determinizations draw from the standard library's
# ``random.Random`` (a bot's seed fixes its moves). Its ``shuffle`` and ``choice``
# are written in Python, so they stay interpreted in the compiled build and were
# the largest single cost of several games' determinize. These are the same
# algorithms (CPython's, unchanged since 3.2) drawing the same ``getrandbits``:
# for the same generator they give the same results, compiled with the rest.


def std_below(rng: random.Random, n: int) -> int:
    """``rng._randbelow(n)``: rejection sampling on ``n.bit_length()`` bits (n > 0)."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def std_shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``: the same permutation from the same generator state.

    Lists only (compiled, list indexing is then a native operation).
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def std_choice(rng: random.Random, items: list[T]) -> T:
    """``rng.choice(items)``: the same pick from the same generator state."""
    if not items:
        raise IndexError("Cannot choose from an empty sequence")
    return items[std_below(rng, len(items))]


class ChanceNeeded(Exception):
    """A :class:`ScriptedRng` ran out of outcomes: the next one has ``n`` equally likely values.

    ``items`` is the list being shuffled when the draw is a shuffle's step (the outcome
    then picks which of ``items[:n]`` goes to position ``n - 1``), else None.
    """

    def __init__(self, n: int, items: list[Any] | None) -> None:
        super().__init__(f"a chance outcome out of {n} is needed")
        self.n = n
        self.items = items


class ScriptedRng(Rng):
    """A source of chance that plays given outcomes and asks for the next one.

    Every draw of a game is a uniform choice: ``below(n)``, or a step of a
    Fisher–Yates shuffle (which of the ``i + 1`` items not yet placed goes to
    position ``i``: a card at a time over the cards not placed). This class
    takes those choices from ``script`` in turn and raises :class:`ChanceNeeded`
    when it runs out, so an adapter can offer the next one as an explicit chance
    node (decklab/interop/openspiel.py) without any game listing its outcomes.
    A raw 64-bit draw has too many outcomes to list, so :meth:`next64` refuses.
    """

    __slots__ = ("_pos", "_script")

    _script: list[int]
    _pos: int

    def __init__(self, script: list[int] | None = None) -> None:
        # (``script`` may be left out: compiled, copy and pickle make the object with no
        # arguments, then set its fields)
        super().__init__(0)
        self._script = [] if script is None else script
        self._pos = 0

    @property
    def used(self) -> int:
        """How many outcomes of the script have been taken."""
        return self._pos

    def _take(self, n: int, items: list[Any] | None) -> int:
        pos = self._pos
        if pos >= len(self._script):
            raise ChanceNeeded(n, items)
        value = self._script[pos]
        if not 0 <= value < n:
            raise ValueError(f"chance outcome {value} is not one of 0…{n - 1}")
        self._pos = pos + 1
        return value

    def below(self, n: int) -> int:
        return self._take(n, None)

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self._take(i + 1, items)
            items[i], items[j] = items[j], items[i]

    def next64(self) -> int:
        raise ValueError("a raw 64-bit draw has too many outcomes to offer as a chance node")

    def copy(self) -> Rng:
        other = ScriptedRng(self._script.copy())
        other._pos = self._pos
        return other
