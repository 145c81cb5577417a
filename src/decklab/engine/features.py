"""A fixed-layout feature vector built from a seat's view, block by block.

Learning libraries want every observation of a game as a vector of one fixed
length. Each game's ``encoding.py`` hook builds it from ``view(seat)`` alone
(never from the state, so it cannot show what the seat may not see) with the
blocks below. Every block has a size fixed by its arguments, which depend only
on the player count and the options, so the layout is the same at every step;
each block carries a name, so the layout documents itself (``docs/interop.md``
is printed from it). Pure Python: the game folders must not need NumPy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from decklab import cards


class Features:
    """A vector of floats kept sparse (most of an encoding is zeros), and its named blocks."""

    __slots__ = ("blocks", "indices", "size", "weights")

    def __init__(self) -> None:
        self.size = 0
        self.indices: list[int] = []
        self.weights: list[float] = []
        """The non-zero entries: ``values[indices[k]] += weights[k]`` (repeats add up)."""
        self.blocks: list[tuple[str, int, str]] = []
        """(name, size, meaning) of every block, in order."""

    def __len__(self) -> int:
        return self.size

    @property
    def values(self) -> list[float]:
        """The whole vector as a list (the adapters build arrays from the sparse form)."""
        out = [0.0] * self.size
        for i, w in zip(self.indices, self.weights, strict=True):
            out[i] += w
        return out

    def _block(self, name: str, size: int, meaning: str) -> int:
        start = self.size
        self.blocks.append((name, size, meaning))
        self.size = start + size
        return start

    def add(self, name: str, values: Sequence[float], meaning: str = "") -> None:
        """Append a block of raw values."""
        start = self._block(name, len(values), meaning)
        for k, v in enumerate(values):
            if v:
                self.indices.append(start + k)
                self.weights.append(float(v))

    def one_hot(self, name: str, index: int | None, size: int, meaning: str = "") -> None:
        """``size`` zeros with a one at ``index`` (none for ``None``)."""
        start = self._block(name, size, meaning or "one-hot")
        if index is not None:
            if not 0 <= index < size:
                raise ValueError(f"{name}: index {index} is outside 0…{size - 1}")
            self.indices.append(start + index)
            self.weights.append(1.0)

    def counts(
        self, name: str, items: Iterable[Any], slots: Mapping[Any, int], meaning: str = ""
    ) -> None:
        """How many times each slot's item occurs among ``items`` (unknown items are skipped:
        a hidden card ``??`` has no slot)."""
        size = len(set(slots.values()))
        start = self._block(name, size, meaning or "count per card (slot order)")
        for item in items:
            i = slots.get(item)
            if i is not None:
                self.indices.append(start + i)
                self.weights.append(1.0)

    def number(self, name: str, value: float | None, scale: float = 1.0, meaning: str = "") -> None:
        """One value divided by ``scale`` (so most values fall in 0…1); ``None`` is 0."""
        start = self._block(name, 1, meaning or f"/ {scale:g}")
        if value:
            self.indices.append(start)
            self.weights.append(float(value) / scale)

    def numbers(
        self, name: str, values: Sequence[float | None], scale: float = 1.0, meaning: str = ""
    ) -> None:
        start = self._block(name, len(values), meaning or f"/ {scale:g}, by seat")
        for k, v in enumerate(values):
            if v:
                self.indices.append(start + k)
                self.weights.append(float(v) / scale)

    def layout(self) -> list[tuple[str, int, int, str]]:
        """(name, start, size, meaning) of every block: the documented layout."""
        out = []
        start = 0
        for name, size, meaning in self.blocks:
            out.append((name, start, size, meaning))
            start += size
        return out


def card_slots(deck: Iterable[int]) -> dict[str, int]:
    """Card text (K1) → slot, for a deck's distinct cards in sorted order."""
    return {cards.to_str(c): i for i, c in enumerate(sorted(set(deck)))}


STANDARD_SLOTS = card_slots(cards.deck())
"""The 52 cards of a standard deck, by text: A♠ … K♠, A♥ … (suit-major)."""


def seat_order(view: Mapping[str, Any], num_players: int) -> list[str]:
    """Seat names starting with the viewing seat and going round the table.

    Encodings list seats relative to the viewer, so one policy can play any seat.
    """
    me = int(str(view["seat"])[1:]) - 1
    return [f"p{(me + k) % num_players + 1}" for k in range(num_players)]


def relative(name: str | None, order: Sequence[str]) -> int | None:
    """The position of seat ``name`` in ``order`` (None for no seat)."""
    return None if name is None else order.index(name)
