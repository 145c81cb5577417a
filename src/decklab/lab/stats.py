"""The statistics of an honest match: intervals, ratings and a sequential test.

Nothing here knows a game; it works on win shares, scores and pairwise results.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion.

    Chosen over the plain ± interval because it stays inside [0, 1] and keeps
    its coverage for the small samples and lopsided rates that bot matches
    produce. Fractional successes (shared wins counted 1/k) are allowed.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2.0 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation 95% interval (the interval is the mean itself for n < 2)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, mean, mean)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


class Tally:
    """A running multiset of floats: the sums that :func:`mean_interval` and
    ``math.fsum`` need, in memory bounded by the distinct values, not by how many.

    Game results take few distinct values (whole scores, win shares 1/k, move
    counts), so the tally keeps a count per value and its figures are exactly
    those of the full list: an exact rational sum rounded once is what
    ``math.fsum`` returns. Past :attr:`LIMIT` distinct values (continuous
    scores) it folds into exact power sums; the mean stays exact and the
    interval agrees with :func:`mean_interval` to rounding (about 1e-15).
    """

    LIMIT = 4096

    def __init__(self, values: Iterable[float] = ()) -> None:
        self.counts: dict[float, int] = {}
        self.n = 0
        self._sums: list[Fraction] | None = None
        """Σx and Σx² once folded (None while the counts are kept)."""
        self._odd: list[float] = []
        """Non-finite values (no exact arithmetic for them; they are rare)."""
        for v in values:
            self.add(v)

    def add(self, value: float, times: int = 1) -> None:
        self.n += times
        if not math.isfinite(value):
            self._odd.extend([value] * times)
        elif self._sums is not None:
            x = Fraction(value)
            self._sums[0] += x * times
            self._sums[1] += x * x * times
        elif value in self.counts:
            self.counts[value] += times
        elif len(self.counts) < self.LIMIT:
            self.counts[value] = times
        else:
            self._fold()
            self.add(value, times)
            self.n -= times

    def _fold(self) -> None:
        s1 = s2 = Fraction(0)
        for v, c in self.counts.items():
            x = Fraction(v)
            s1 += x * c
            s2 += x * x * c
        self._sums = [s1, s2]
        self.counts = {}

    def total(self) -> float:
        """``math.fsum`` of the values, exactly."""
        if self._odd:
            return math.fsum([*self._odd, self._exact_sum()])
        return self._exact_sum()

    def _exact_sum(self) -> float:
        if self._sums is not None:
            return float(self._sums[0])
        return float(sum((Fraction(v) * c for v, c in self.counts.items()), Fraction(0)))

    def squared_deviations(self, centre: float) -> float:
        """``math.fsum((v - centre) ** 2 for v in values)``: exact while counts are kept."""
        if self._odd:
            return math.nan
        if self._sums is not None:
            c = Fraction(centre)
            return float(self._sums[1] - 2 * c * self._sums[0] + self.n * c * c)
        return float(
            sum((Fraction((v - centre) ** 2) * k for v, k in self.counts.items()), Fraction(0))
        )


def tally_mean_interval(tally: Tally, z: float = Z95) -> tuple[float, float, float]:
    """:func:`mean_interval` of the values a :class:`Tally` holds."""
    n = tally.n
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = tally.total() / n
    if n < 2:
        return (mean, mean, mean)
    var = tally.squared_deviations(mean) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


# ---------------------------------------------------------------- Bradley–Terry
def bradley_terry(
    wins: Sequence[Sequence[float]], prior: float = 0.5, iterations: int = 10_000
) -> list[float]:
    """Elo ratings (mean 0) from pairwise results, by Hunter's MM algorithm.

    ``wins[i][j]`` is how often ``i`` beat ``j`` (a draw counts a half to each).
    ``prior`` adds that many virtual draws between every pair that met, so that
    an agent that never lost gets a large finite rating rather than infinity
    (and a tiny sample is shrunk towards equality, which is the honest reading).
    MM is chosen over Newton because every step provably increases the
    likelihood and it needs no step control.
    """
    k = len(wins)
    games = [[wins[i][j] + wins[j][i] for j in range(k)] for i in range(k)]
    w = [[wins[i][j] + (prior / 2 if games[i][j] > 0 else 0.0) for j in range(k)] for i in range(k)]
    n = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    total_wins = [sum(w[i]) for i in range(k)]
    gamma = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            denom = sum(n[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i and n[i][j])
            new.append(total_wins[i] / denom if denom > 0 else gamma[i])
        # Normalise by the geometric mean so that ratings have mean 0.
        logs = [math.log(g) if g > 0 else -700.0 for g in new]
        shift = sum(logs) / k
        new = [math.exp(v - shift) for v in logs]
        change = max(abs(a - b) / b for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < 1e-10:
            break
    return [400.0 * math.log10(g) if g > 0 else -math.inf for g in gamma]


# ------------------------------------------------------------------------ SPRT
def elo_to_score(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger (logistic Elo)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def _mle_lambda(values: Sequence[float], probs: Sequence[float], s: float) -> float:
    """λ for the most likely distribution with mean ``s`` (see :func:`sprt_llr`)."""
    # f(λ) = Σ p (a − s) / (1 + λ (a − s)) decreases in λ on the interval where
    # every 1 + λ (a − s) > 0; its root is the constrained maximum likelihood.
    lo_a = min(values) - s
    hi_a = max(values) - s
    lo = -1.0 / hi_a if hi_a > 0 else -1e12
    hi = -1.0 / lo_a if lo_a < 0 else 1e12
    eps = 1e-12
    lo, hi = lo + eps * abs(lo) + eps, hi - eps * abs(hi) - eps

    def f(lam: float) -> float:
        return sum(p * (a - s) / (1.0 + lam * (a - s)) for a, p in zip(values, probs, strict=True))

    for _ in range(200):
        mid = (lo + hi) / 2.0
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def sprt_llr(scores: Sequence[float], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (Elo ``elo1``) against H0 (Elo ``elo0``).

    ``scores`` are per-unit scores in [0, 1]: one per duplicate deal (agent A's
    share of its pairwise results against B over every rotation of the deal).
    The model is fishtest's generalized SPRT: the outcome distribution is
    multinomial over the observed score values (pentanomial when a unit is a
    pair of two-player games), and under each hypothesis it is the most likely
    distribution whose mean is that hypothesis's expected score (Van den
    Bergh's MLE method). A small pseudo-count at 0 and at 1, as fishtest adds
    to empty cells, keeps both hypotheses reachable after a few units.
    """
    counts: dict[float, float] = {}
    for x in scores:
        key = round(x, 9)
        counts[key] = counts.get(key, 0.0) + 1.0
    return sprt_llr_counts(counts, len(scores), elo0, elo1)


def sprt_llr_counts(observed: Mapping[float, float], n: int, elo0: float, elo1: float) -> float:
    """:func:`sprt_llr` from its sufficient statistics: how often each score
    (rounded to 9 places, in order of first appearance) was seen, and how many
    units there were. A running match keeps these instead of every score."""
    if n == 0:
        return 0.0
    counts = dict(observed)
    counts[0.0] = counts.get(0.0, 0.0) + 1e-3
    counts[1.0] = counts.get(1.0, 0.0) + 1e-3
    total = sum(counts.values())
    values = sorted(counts)
    probs = [counts[v] / total for v in values]
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    lam0 = _mle_lambda(values, probs, s0)
    lam1 = _mle_lambda(values, probs, s1)
    return n * sum(
        p * (math.log(1.0 + lam0 * (a - s0)) - math.log(1.0 + lam1 * (a - s1)))
        for a, p in zip(values, probs, strict=True)
    )


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds: accept H0 below the first, H1 above the second."""
    return (math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


# ------------------------------------------------------------------ χ² tests
def chi2_sf_closed(x: float, dof: int) -> float:
    """P(X ≥ x) for X χ²-distributed with a whole number ``dof`` of degrees of freedom.

    The closed form of the regularised upper incomplete gamma function Q(dof/2, x/2)
    for whole and half-whole shapes (Abramowitz & Stegun 26.4.4–26.4.5): for even
    ``dof`` ``e^(-x/2) Σ_{i<dof/2} (x/2)^i / i!``; for odd ``dof`` ``erfc(√(x/2))``
    plus ``e^(-x/2) Σ_{i=1}^{(dof-1)/2} (x/2)^(i-1/2) / Γ(i+1/2)``. Exact up to
    rounding for the few degrees of freedom a table of seats has; the fallback of
    :func:`chi2_sf` where SciPy is not installed.
    """
    if dof < 1:
        raise ValueError(f"a χ² distribution has at least 1 degree of freedom, not {dof}")
    if x <= 0.0:
        return 1.0
    half = x / 2.0
    if dof % 2 == 0:
        term = 1.0
        total = 1.0
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = 0.0
    term = math.sqrt(half) / math.gamma(1.5)  # (x/2)^(1/2) / Γ(3/2)
    for i in range(1, (dof - 1) // 2 + 1):
        total += term
        term *= half / (i + 0.5)
    return min(1.0, math.erfc(math.sqrt(half)) + math.exp(-half) * total)


def chi2_sf(x: float, dof: int) -> float:
    """P(X ≥ x) for a χ² distribution: SciPy's where installed, else :func:`chi2_sf_closed`."""
    try:
        from scipy.stats import chi2
    except ImportError:
        return chi2_sf_closed(x, dof)
    return float(chi2.sf(x, dof))


def equal_shares_chi2(wins: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's χ² test that every seat wins equally often: (statistic, dof, p-value).

    ``wins`` holds each seat's wins; a win shared by k seats counts 1/k to each,
    so every game with a winner adds 1 to the total. Under "every seat alike" each
    seat expects the total divided by the number of seats. Fractional counts keep
    the statistic's meaning; since a shared win varies less than a whole one, the
    test is slightly conservative (p a little too large) when many wins are shared.
    With no wins at all there is nothing to compare: (0, dof, 1).
    """
    k = len(wins)
    if k < 2:
        raise ValueError("a seat effect needs at least two seats")
    total = math.fsum(wins)
    if total <= 0.0:
        return (0.0, k - 1, 1.0)
    expected = total / k
    statistic = math.fsum((w - expected) ** 2 for w in wins) / expected
    return (statistic, k - 1, chi2_sf(statistic, k - 1))
