"""What the compiled build's shortcuts must not change: the seeded generator's numbers,
and a new game's setup, which games with ``static_setup`` write only when it is read."""

from __future__ import annotations

import json
import random

import pytest

from decklab.engine.chance import Rng
from decklab.engine.registry import game_names, get_game
from test_build import need_compiled, run_python

RNG_PROBE = (
    "import json; from decklab.engine.chance import Rng;"
    "out = [];"
    "seeds = [0, 1, 2**62 - 1, 2**62, 2**63, 2**64 - 1, 2**64 + 5, -7, 123456789];"
    "ns = [1, 2, 6, 13, 52, 104, 2**30 - 1, 2**30, 2**40];"
    "[out.extend([Rng(s).s] + [r.below(n) for r in [Rng(s)] for n in ns]"
    " + [r.next64() for r in [Rng(s)] for _ in range(3)]"
    " + [x for r in [Rng(s)] for k in (2, 13, 36, 52, 104)"
    " for x in [lst for lst in [list(range(k))] if r.shuffle(lst) is None][0]])"
    " for s in seeds];"
    "print('RNG', json.dumps(out))"
)


def _rng_numbers(env: dict[str, str]) -> list[int]:
    line = next(x for x in run_python(RNG_PROBE, env).splitlines() if x.startswith("RNG "))
    return list(json.loads(line[4:]))


def test_K3_generator_draws_the_same_numbers_on_both_builds() -> None:
    need_compiled()
    compiled = _rng_numbers({"DECKLAB_PURE": "0"})
    pure = _rng_numbers({"DECKLAB_PURE": "1"})
    assert compiled == pure
    assert len(compiled) > 9 * 20


def test_K3_generator_is_splitmix64() -> None:
    # The reference: splitmix64 written out on Python ints, as its authors define it.
    mask = (1 << 64) - 1
    s = 42
    rng = Rng(42)
    for _ in range(50):
        s = (s + 0x9E3779B97F4A7C15) & mask
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        assert rng.below(1000) == (z * 1000) >> 64
    assert rng.s == s


def _shuffle_by_definition(rng: Rng, items: list[int]) -> None:
    """Rng.shuffle written the slow way: X is the draws one after another (most
    significant first), and swap i takes X's digit of radix i + 1, one at a time."""
    n = len(items)
    if n < 2:
        return
    x = 0
    for _ in range((n * n.bit_length()) // 64 + 3):
        x = (x << 64) | rng.next64()
    for i in range(n - 1, 0, -1):
        x, j = divmod(x, i + 1)
        items[i], items[j] = items[j], items[i]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 13, 36, 52, 64, 104])
def test_K3_shuffle_is_its_definition(n: int) -> None:
    # The chunked digits and the draws read as bytes are shortcuts (on both builds):
    # the permutation and the generator's state after it must be the plain algorithm's.
    for seed in (0, 1, 5, 2**63 + 11, 987654321):
        fast, slow = Rng(seed), Rng(seed)
        a, b = list(range(n)), list(range(n))
        fast.shuffle(a)
        _shuffle_by_definition(slow, b)
        assert a == b
        assert fast.s == slow.s


@pytest.mark.parametrize("game", game_names())
def test_a_setup_written_late_is_the_setup_as_dealt(game: str) -> None:
    cls = get_game(game)
    early = cls.new(seed=17).initial_setup  # read at once
    late = cls.new(seed=17)
    twin = late.clone()  # cloned before anything was written
    rng = random.Random(3)
    while not late.is_terminal():
        seat = late.to_act()[0]
        late.apply(seat, rng.choice(late.legal_actions(seat)))
    assert late.initial_setup == early
    assert twin.initial_setup == early
    assert late.initial_setup is not early
    sample = cls.new(seed=17).determinize(0, random.Random(1))
    assert sample.initial_setup is None
