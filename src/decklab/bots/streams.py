"""A random stream that is seeded only when something is drawn from it.

``fast`` gives every candidate move the same random stream (common random
numbers): a ``random.Random(seed)`` per candidate and sampled deal. Seeding one
costs about 4 µs (Mersenne Twister's 624 words of state, spread from the seed), and
in many rollouts nothing is ever drawn: Corporation's greedy player draws only to
split near-equal values, and after its opponent model was shared across a search's
iterations, the seeding was about a quarter of ``fast``'s CPU a decision there, the
largest single cost. :class:`SeededOnUse` is a ``random.Random`` (so compiled code
that expects one takes it) that keeps the seed and seeds itself on the first draw,
so it gives exactly the draws ``random.Random(seed)`` gives.
"""

from __future__ import annotations

import random
from typing import Any


class SeededOnUse(random.Random):
    """``random.Random(seed)``, seeded on first use.

    The generator's state lives in the C base class; every way of reading it
    (``random``, ``getrandbits``, ``getstate``) seeds it first, and every other
    method of ``random.Random`` (``choice``, ``shuffle``, ``randrange``, ``gauss`` …)
    draws through ``random`` or ``getrandbits``. ``seed`` and ``setstate`` make the
    state themselves, so the kept seed is then dropped.
    """

    def __init__(self, seed: int) -> None:  # no super().__init__: that would seed now
        self._pending: int | None = seed
        self.gauss_next = None

    def _ready(self) -> None:
        if self._pending is not None:
            pending, self._pending = self._pending, None
            super().seed(pending)

    def random(self) -> float:
        if self._pending is not None:
            self._ready()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        if self._pending is not None:
            self._ready()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        self._ready()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._pending = None
        super().setstate(state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._pending = None
        super().seed(a, version)

    def __reduce__(self) -> tuple[Any, ...]:
        """A copy is a plain ``random.Random`` in the same state (seeded now if need be)."""
        return (random.Random, (), self.getstate())
