"""Paired comparisons against hand-computed values on small synthetic results."""

from __future__ import annotations

import math
import random

import pytest

from decklab.lab import compare, metrics, paired


def test_paired_t_interval_and_p_value_by_hand() -> None:
    # d = 1..5: mean 3, sd √(10/4) = 1.58114, se = 0.70711, t(0.975, 4) = 2.77645
    t = paired.paired_t([1.0, 2.0, 3.0, 4.0, 5.0])
    assert t.n == 5 and t.mean == 3.0
    assert t.sd == pytest.approx(1.5811388, abs=1e-6)
    half = 2.7764451 * 0.7071068
    assert (t.low, t.high) == (pytest.approx(3 - half, abs=1e-6), pytest.approx(3 + half, abs=1e-6))
    # t = 3 / 0.70711 = 4.2426 on 4 df: two-sided p = 0.013236 (tables)
    assert t.p == pytest.approx(0.0132356, abs=1e-6)


def test_paired_t_without_spread_or_deals() -> None:
    assert paired.paired_t([0.0, 0.0, 0.0]).p == 1.0
    flat = paired.paired_t([2.0, 2.0])
    assert (flat.low, flat.high, flat.p) == (2.0, 2.0, 0.0)
    assert math.isnan(paired.paired_t([1.0]).low)


def test_holm_adjusted_p_values_and_decisions_by_hand() -> None:
    # sorted: 0.005×4 = 0.02, 0.01×3 = 0.03, 0.03×2 = 0.06, 0.04×1 = 0.04 → 0.06 (monotone)
    p = [0.01, 0.04, 0.03, 0.005]
    assert paired.holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert paired.holm_reject(p) == [True, False, False, True]
    # unadjusted, all four are below 0.05: the correction is what stops two of them
    assert all(x < 0.05 for x in p)
    assert paired.holm([0.5, 0.4]) == pytest.approx([0.8, 0.8])
    assert paired.holm([0.9, math.nan, 0.01])[2] == pytest.approx(0.02)  # NaN not counted
    assert math.isnan(paired.holm([math.nan])[0])


def test_minimum_detectable_effect_by_hand() -> None:
    # sd 2, n 10: (t(0.975, 9) + t(0.80, 9)) · 2 / √10 = (2.262157 + 0.883404) · 0.632456
    assert paired.mde(2.0, 10) == pytest.approx(1.989426, abs=1e-5)
    # many deals: the normal formula (z 0.975 + z 0.80) · sd / √n = 2.80159 · sd / √n
    assert paired.mde(1.0, 10_000) == pytest.approx(2.80159 / 100, abs=2e-5)
    assert math.isnan(paired.mde(2.0, 1))


def test_bootstrap_is_reproducible_and_close_to_t_on_normal_data() -> None:
    rng = random.Random(5)
    diffs = [rng.gauss(0.3, 1.0) for _ in range(400)]
    one = paired.bootstrap_interval(diffs, seed=11)
    assert one == paired.bootstrap_interval(diffs, seed=11)
    assert one != paired.bootstrap_interval(diffs, seed=12)
    t = paired.paired_t(diffs)
    assert one[0] == pytest.approx(t.low, abs=0.02)
    assert one[1] == pytest.approx(t.high, abs=0.02)


def test_verdict_needs_enough_deals_and_a_holm_p_below_alpha() -> None:
    assert paired.verdict(29, 0.0001) == paired.TOO_FEW
    assert paired.verdict(30, 0.01) == paired.FINDING
    assert paired.verdict(300, 0.2) == paired.NO_DIFFERENCE


def _rows(scores_a: list[float], players: int = 1) -> metrics.Rows:
    n = len(scores_a)
    return metrics.Rows(
        players=players,
        agents=["greedy"],
        lineup=[[0] * players for _ in range(n)],
        scores=[[s] * players for s in scores_a],
        shares=[[1.0 if s == 0 else 0.0] * players for s in scores_a],
        length=[10] * n,
        deal=list(range(n)),
        lower_is_better=True,
    )


def test_solo_comparison_pairs_score_and_perfect_games_by_deal() -> None:
    a = _rows([4.0, 0.0, 6.0, 2.0])
    b = _rows([3.0, 0.0, 4.0, 2.0])  # same deals, 1, 0, 2, 0 points better
    found = {d.metric: d for d in compare.compare_rows(a, b)}
    assert set(found) == {"score", "perfect games", "length"}
    score = found["score"]
    assert (score.a_mean, score.b_mean, score.t.mean) == (3.0, 2.25, -0.75)
    assert score.t.sd == pytest.approx(math.sqrt((0.25**2 + 0.75**2 + 1.25**2 + 0.75**2) / 3))
    decided = compare.decide([d.to_json() for d in found.values()])
    assert all(r["verdict"] == paired.TOO_FEW and r["tests"] == 3 for r in decided)
