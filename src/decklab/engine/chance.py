"""The seeded source of chance (K3).

A splitmix64 generator whose whole state is one integer: cloning a game state
copies it for free, which matters because search clones states millions of
times. Every chance outcome a game draws is also written into its history, so
records replay identically even if this generator ever changes.
"""

from __future__ import annotations

import os
import random
from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

T = TypeVar("T")
_MASK: Final = (1 << 64) - 1
_WORD: Final = (1 << 62) - 1
"""The largest radix product whose remainders stay native (unboxed) ints when compiled."""


class Rng:
    """splitmix64: small, fast, statistically sound for games."""

    __slots__ = ("s",)

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        self.s = seed & _MASK

    def next64(self) -> int:
        s = self.s = (self.s + 0x9E3779B97F4A7C15) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (multiply-shift; bias below 2⁻⁵⁸ for card games)."""
        return (self.next64() * n) >> 64

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, in place, from a handful of 64-bit draws.

        Dealing is a large share of a short random playout, so instead of one
        draw per card the draws are joined into one integer X with at least
        log2(n!) + 128 bits, and the swap indices are the digits of X in the
        factorial number system: a uniform permutation to within 2⁻¹²⁸, at a
        fraction of the cost of a draw per card.
        """
        n = len(items)
        if n < 2:
            return
        x = 0
        for _ in range((n * n.bit_length()) // 64 + 3):
            x = (x << 64) | self.next64()
        # The digits come off X in chunks: one long division by the product of a run of
        # radices (i + 1, i, …, lo + 1) leaves a remainder that fits a machine word, and
        # its own digits are the same as X's (mixed radix), found with word divisions.
        i = n - 1
        while i > 0:
            lo = i
            radix = i + 1
            while lo > 1 and radix <= _WORD // lo:
                radix *= lo
                lo -= 1
            x, r = divmod(x, radix)
            while i >= lo:
                r, j = divmod(r, i + 1)
                items[i], items[j] = items[j], items[i]
                i -= 1

    def copy(self) -> Rng:
        # The constructor, not ``Rng.__new__(Rng)`` and a field assignment: compiled,
        # ``__new__`` is a slow generic call while the constructor is a native one,
        # and search copies a generator with every state it clones.
        return Rng(self.s)


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
