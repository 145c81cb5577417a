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
from typing import Final, TypeVar

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

# Masks that make the arithmetic right shifts of a signed i64 logical (splitmix64's
# constants are in Rng._step, and unsigned in next64's interpreted branch).
_LOW34: Final[i64] = (1 << 34) - 1
_LOW37: Final[i64] = (1 << 37) - 1
_LOW33: Final[i64] = (1 << 33) - 1
_LOW32: Final[i64] = (1 << 32) - 1


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
        """Compiled only: the next output as a signed i64 with splitmix64's bits.

        splitmix64's three 64-bit constants are put together here from
        32-bit halves held in locals: written as literals or Final names, values beyond
        a tagged int's 62 bits are kept as Python ints by mypyc and converted on every
        call, which cost ten times the arithmetic itself.
        """
        hi: i64 = -1640531527  # 0x9E3779B9 as a signed 32-bit number
        s: i64 = self._t + ((hi << 32) | 0x7F4A7C15)
        self._t = s
        hi = -1084733587  # 0xBF58476D
        z: i64 = (s ^ ((s >> 30) & _LOW34)) * ((hi << 32) | 0x1CE4E5B9)
        hi = -1798288965  # 0x94D049BB
        z = (z ^ ((z >> 27) & _LOW37)) * ((hi << 32) | 0x133111EB)
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

    def _word(self) -> bytes:
        """The next 64-bit output as 8 bytes, most significant first."""
        if NATIVE:
            z: int = self._step()
            return z.to_bytes(8, "big", signed=True)  # two's complement: splitmix64's bits
        return self.next64().to_bytes(8, "big")

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates, in place, from a handful of 64-bit draws.

        Dealing is a large share of a short random playout, so instead of one
        draw per card the draws are joined into one integer X with at least
        log2(n!) + 128 bits, and the swap indices are the digits of X in the
        factorial number system: a uniform permutation to within 2⁻¹²⁸, at a
        fraction of the cost of a draw per card. (Lists only: compiled, list
        indexing is then a native operation.)

        X is the draws' bytes read as one number (one conversion instead of a
        shift and an or of a growing integer per draw), and the digits' arithmetic
        is on i64: native divisions, compiled.
        """
        n = len(items)
        if n < 2:
            return
        words = [self._word() for _ in range((n * n.bit_length()) // 64 + 3)]
        x = int.from_bytes(b"".join(words), "big")
        # The digits come off X in chunks: one long division by the product of a run of
        # radices (i + 1, i, …, lo + 1) leaves a remainder that fits a machine word, and
        # its own digits are the same as X's (mixed radix), found with word divisions.
        i: i64 = n - 1
        while i > 0:
            lo: i64 = i
            radix: i64 = i + 1
            while lo > 1 and radix * lo < _RADIX_MAX:
                radix *= lo
                lo -= 1
            x, rest = divmod(x, int(radix))
            r: i64 = rest
            while i >= lo:
                d: i64 = i + 1
                j: i64 = r % d
                r = r // d
                items[i], items[j] = items[j], items[i]
                i -= 1

    def copy(self) -> Rng:
        # The constructor, not ``Rng.__new__(Rng)``: compiled, ``__new__`` is a slow
        # generic call while the constructor is a native one, and search copies a
        # generator with every state it clones.
        other = Rng(0)
        other._t = self._t
        return other


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
