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
    """A flat list of floats and the named blocks it is made of."""

    __slots__ = ("blocks", "values")

    def __init__(self) -> None:
        self.values: list[float] = []
        self.blocks: list[tuple[str, int, str]] = []
        """(name, size, meaning) of every block, in order."""

    def __len__(self) -> int:
        return len(self.values)

    def add(self, name: str, values: Sequence[float], meaning: str = "") -> None:
        """Append a block of raw values."""
        self.values.extend(float(v) for v in values)
        self.blocks.append((name, len(values), meaning))

    def one_hot(self, name: str, index: int | None, size: int, meaning: str = "") -> None:
        """``size`` zeros with a one at ``index`` (none for ``None``)."""
        block = [0.0] * size
        if index is not None:
            if not 0 <= index < size:
                raise ValueError(f"{name}: index {index} is outside 0…{size - 1}")
            block[index] = 1.0
        self.add(name, block, meaning or "one-hot")

    def counts(
        self, name: str, items: Iterable[Any], slots: Mapping[Any, int], meaning: str = ""
    ) -> None:
        """How many times each slot's item occurs among ``items`` (unknown items are skipped:
        a hidden card ``??`` has no slot)."""
        block = [0.0] * len(set(slots.values()))
        for item in items:
            i = slots.get(item)
            if i is not None:
                block[i] += 1.0
        self.add(name, block, meaning or "count per card (slot order)")

    def number(self, name: str, value: float | None, scale: float = 1.0, meaning: str = "") -> None:
        """One value divided by ``scale`` (so most values fall in 0…1); ``None`` is 0."""
        self.add(name, [0.0 if value is None else float(value) / scale], meaning or f"/ {scale:g}")

    def numbers(
        self, name: str, values: Sequence[float | None], scale: float = 1.0, meaning: str = ""
    ) -> None:
        self.add(
            name,
            [0.0 if v is None else float(v) / scale for v in values],
            meaning or f"/ {scale:g}, by seat",
        )

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
