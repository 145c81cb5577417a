"""``SeededOnUse`` (bots/streams.py) must draw exactly what ``random.Random(seed)`` draws,
whichever method is asked first, or ``fast``'s same-seed moves change."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from decklab.bots.streams import SeededOnUse
from decklab.engine.chance import std_choice, std_shuffle

DRAWS: dict[str, Callable[[random.Random], Any]] = {
    "random": lambda r: r.random(),
    "getrandbits": lambda r: r.getrandbits(70),
    "randrange": lambda r: r.randrange(1000),
    "choice": lambda r: r.choice("abcdefg"),
    "shuffle": lambda r: (lambda xs: (r.shuffle(xs), xs)[1])(list(range(12))),
    "sample": lambda r: r.sample(range(50), 5),
    "gauss": lambda r: r.gauss(0.0, 1.0),
    "uniform": lambda r: r.uniform(2.0, 3.0),
    "std_choice": lambda r: std_choice(r, [3, 1, 4, 1, 5, 9]),
    "std_shuffle": lambda r: (lambda xs: (std_shuffle(r, xs), xs)[1])(list(range(9))),
    "getstate": lambda r: r.getstate(),
}


@pytest.mark.parametrize("first", sorted(DRAWS))
def test_the_same_draws_as_a_seeded_random_whatever_is_drawn_first(first: str) -> None:
    for seed in (0, 7, 2**64 - 1, 12345678901234567890):
        lazy, plain = SeededOnUse(seed), random.Random(seed)
        order = [first, *sorted(DRAWS), first, "gauss", "gauss"]
        for name in order:
            assert DRAWS[name](lazy) == DRAWS[name](plain), (seed, name)


def test_seed_setstate_and_copies_behave_as_on_a_seeded_random() -> None:
    lazy, plain = SeededOnUse(5), random.Random(5)
    lazy.seed(99)
    plain.seed(99)
    assert lazy.random() == plain.random()
    other = random.Random(3)
    fresh = SeededOnUse(5)
    fresh.setstate(other.getstate())  # the kept seed is dropped, not applied later
    assert [fresh.getrandbits(32) for _ in range(5)] == [other.getrandbits(32) for _ in range(5)]
    untouched = SeededOnUse(11)
    twin = copy.deepcopy(untouched)
    expected = random.Random(11)
    wanted = [expected.random() for _ in range(3)]
    assert [twin.random() for _ in range(3)] == wanted
    assert [untouched.random() for _ in range(3)] == wanted


def test_nothing_is_seeded_until_a_draw() -> None:
    """The saving itself: a stream nobody draws from is never seeded."""
    lazy = SeededOnUse(42)
    assert lazy._pending == 42
    lazy.getrandbits(1)
    assert lazy._pending is None
