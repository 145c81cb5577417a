"""Paired comparisons of two variants over the same deals: intervals, tests, power.

Why paired: the lab plays every variant on the same deal seeds (common random
numbers), so a deal that is hard in one variant tends to be hard in the other;
the difference per deal then varies far less than either variant's results,
and a difference of a few points can be decided with the deals an unpaired
comparison would need many times over. The unit is the deal (each deal's
value is the mean over its seat rotations); deals are independent, so
pairing deal *i* of one run with deal *i* of the other is valid even when the
runs do not share seeds (it is then simply no tighter than unpaired).

What is here, nothing of it knowing a game:

- :func:`paired_t`: the mean difference, its t-interval and two-sided p-value;
- :func:`bootstrap_interval`: a percentile bootstrap over deals, seeded, for
  differences whose distribution is far from normal (win shares of 0, ½, 1);
- :func:`holm`: Holm's step-down adjustment of a page's p-values, which keeps
  the chance of *any* false finding on the page at α (Holm 1979);
- :func:`mde`: the smallest difference the run could have detected;
- :func:`verdict`: the rule that makes a result a finding.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

ALPHA = 0.05
"""The level of every test and the complement of every interval's coverage."""
POWER = 0.80
"""The power the minimum detectable effect is stated at."""
MIN_DEALS = 30
"""Fewer paired deals than this never make a finding, whatever the p-value: the
t-interval leans on the mean being near normal, and the bootstrap on the deals
standing for their distribution, and neither holds on a handful of deals."""
BOOTSTRAP_SAMPLES = 2000


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom."""
    from scipy import stats

    return float(stats.t.ppf(p, df))


@dataclass(frozen=True)
class PairedT:
    """A paired t-interval: ``mean`` difference (B − A), its interval and test."""

    n: int
    mean: float
    sd: float
    low: float
    high: float
    p: float


def paired_t(diffs: Sequence[float], alpha: float = ALPHA) -> PairedT:
    """The paired t-interval and two-sided t-test of H0: mean difference 0.

    ``mean ± t(1 − α/2, n − 1) · sd / √n`` with ``sd`` the sample standard
    deviation of the differences. With no spread at all the interval is the
    mean itself and p is 1 for a zero mean, 0 otherwise. Fewer than 2 deals
    give no interval (NaN).
    """
    from scipy import stats

    n = len(diffs)
    if n == 0:
        return PairedT(0, math.nan, math.nan, math.nan, math.nan, math.nan)
    mean = math.fsum(diffs) / n
    if n < 2:
        return PairedT(n, mean, math.nan, math.nan, math.nan, math.nan)
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (n - 1))
    if sd == 0.0:
        return PairedT(n, mean, 0.0, mean, mean, 1.0 if mean == 0 else 0.0)
    se = sd / math.sqrt(n)
    half = t_quantile(1.0 - alpha / 2.0, n - 1) * se
    p = float(2.0 * stats.t.sf(abs(mean / se), n - 1))
    return PairedT(n, mean, sd, mean - half, mean + half, p)


def bootstrap_interval(
    diffs: Sequence[float],
    seed: int,
    samples: int = BOOTSTRAP_SAMPLES,
    alpha: float = ALPHA,
) -> tuple[float, float]:
    """The percentile bootstrap interval of the mean difference, resampling deals.

    Reproducible: the same ``seed`` and differences give the same interval
    (NumPy's PCG64 from the seed). Resamples are drawn in chunks so memory
    stays bounded for a run of many deals.
    """
    import numpy as np

    n = len(diffs)
    if n < 2:
        return (math.nan, math.nan)
    x = np.asarray(diffs, dtype=float)
    rng = np.random.default_rng(seed)
    chunk = max(1, min(samples, 2_000_000 // n))
    means: list[float] = []
    while len(means) < samples:
        k = min(chunk, samples - len(means))
        idx = rng.integers(0, n, size=(k, n))
        means.extend(x[idx].mean(axis=1).tolist())
    low, high = np.quantile(np.array(means), [alpha / 2.0, 1.0 - alpha / 2.0])
    return (float(low), float(high))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given (NaN stays NaN, and is not counted).

    Sorted ascending, the i-th smallest of m gets ``(m − i) · p`` (i from 0),
    made non-decreasing along the order and capped at 1; a test is rejected at
    level α exactly when its adjusted p-value is at most α, which is Holm's
    step-down procedure.
    """
    present = [(p, i) for i, p in enumerate(pvalues) if not math.isnan(p)]
    present.sort()
    m = len(present)
    out = [math.nan] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(present):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def holm_reject(pvalues: Sequence[float], alpha: float = ALPHA) -> list[bool]:
    """Which tests Holm's procedure rejects at family-wise level ``alpha``."""
    return [not math.isnan(p) and p <= alpha for p in holm(pvalues)]


def mde(sd: float, n: int, alpha: float = ALPHA, power: float = POWER) -> float:
    """The minimum detectable effect of a paired t-test: the true difference it
    would find with probability ``power`` at two-sided level ``alpha``.

    ``(t(1 − α/2, n − 1) + t(power, n − 1)) · sd / √n``, the usual approximation
    (the noncentral t replaced by a shifted central one). It says what a "no
    difference" result rules out: only differences larger than this.
    """
    if n < 2 or math.isnan(sd):
        return math.nan
    return (t_quantile(1.0 - alpha / 2.0, n - 1) + t_quantile(power, n - 1)) * sd / math.sqrt(n)


FINDING = "finding"
NO_DIFFERENCE = "no measurable difference"
TOO_FEW = "too few deals"


def verdict(n: int, adjusted_p: float, alpha: float = ALPHA, min_deals: int = MIN_DEALS) -> str:
    """A result is a finding when it has at least ``min_deals`` paired deals and its
    Holm-adjusted p-value is at most ``alpha``; otherwise it is not one, and says why."""
    if n < min_deals:
        return TOO_FEW
    if not math.isnan(adjusted_p) and adjusted_p <= alpha:
        return FINDING
    return NO_DIFFERENCE
