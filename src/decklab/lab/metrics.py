"""Design metrics over a simulation's rows: balance, length, scores, drama, ratings.

Every metric is defined, with its source, in ``docs/metrics.md``; the
functions here follow those definitions exactly and are tested against
hand-computed values on small synthetic result sets (``tests/lab``). Nothing
here knows a game: it reads the generic columns of the runner's rows (scores,
win shares, seatings, lengths, score traces) and the game's own event counters.

Conventions: a "win" is a seat's share of it (1/k when k seats share it), so
per-seat win rates of a game sum to 1 when someone wins. Scores are turned
round for games where lower is better, so "leading" always means "best".
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decklab.engine.registry import get_game
from decklab.lab import stats
from decklab.lab.runner import derive_seed, read_plan, read_table

HISTOGRAM_BINS = 20


@dataclass
class Rows:
    """One simulation's games as plain columns (one entry per game).

    Built from a run folder (:func:`load`) or by hand (tests); ``traces`` and
    ``events`` may be empty lists when not recorded.
    """

    players: int
    agents: list[str]
    lineup: list[list[int]]
    scores: list[list[float]]
    shares: list[list[float]]
    length: list[int]
    deal: list[int] = field(default_factory=list)
    first_seat: list[int] = field(default_factory=list)
    traces: list[list[list[float]]] = field(default_factory=list)
    events: list[dict[str, int]] = field(default_factory=list)
    lower_is_better: bool = False

    @property
    def games(self) -> int:
        return len(self.scores)

    def signed(self, values: Sequence[float]) -> list[float]:
        """Scores turned round where lower is better: higher is always better here."""
        return [-v for v in values] if self.lower_is_better else list(values)


def load(out: Path) -> Rows:
    """Every finished game of a run folder."""
    plan = read_plan(out)
    table = read_table(out)
    data = table.to_pydict()
    info = get_game(plan.game).info
    return Rows(
        players=plan.players,
        agents=list(plan.agents),
        lineup=data["lineup"],
        scores=data["scores"],
        shares=data["shares"],
        length=data["length"],
        deal=data["deal"],
        first_seat=data["first_seat"],
        traces=data["trace"],
        events=[dict(e) for e in data["events"]],
        lower_is_better=info.lower_is_better,
    )


# -------------------------------------------------------------- small helpers
def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else math.nan


def _sd(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0 if n == 1 else math.nan
    m = _mean(values)
    return math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default, "type 7")."""
    if not sorted_values:
        return math.nan
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def rate(wins: float, n: int) -> dict[str, float]:
    """A rate with its 95% Wilson interval."""
    low, high = stats.wilson(wins, n)
    return {"rate": wins / n if n else math.nan, "low": low, "high": high, "n": n, "wins": wins}


def chi2_sf(x: float, df: int) -> float:
    """P(χ²_df ≥ x): the regularized upper incomplete gamma Q(df/2, x/2)."""
    if x <= 0:
        return 1.0
    a, z = df / 2.0, x / 2.0
    if z < a + 1.0:  # series for P, then Q = 1 − P
        term = total = 1.0 / a
        k = a
        for _ in range(10_000):
            k += 1.0
            term *= z / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    # Continued fraction for Q (Lentz's method).
    tiny = 1e-300
    b = z + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return min(1.0, math.exp(-z + a * math.log(z) - math.lgamma(a)) * h)


# ----------------------------------------------------------------- seats
def seat_win_rates(rows: Rows) -> list[dict[str, float]]:
    """Each seat's win share over all games, with a Wilson interval."""
    return [
        rate(math.fsum(s[seat] for s in rows.shares), rows.games) for seat in range(rows.players)
    ]


def seat_chi_square(rows: Rows) -> dict[str, float]:
    """Pearson's χ² test that every seat wins equally often (goodness of fit to 1/n each).

    Observed: each seat's total win share; expected: the games that someone won,
    split equally. Degrees of freedom n − 1. Shared wins count fractionally.
    """
    observed = [math.fsum(s[seat] for s in rows.shares) for seat in range(rows.players)]
    total = math.fsum(observed)
    if rows.players < 2 or total <= 0:
        return {"chi2": math.nan, "df": rows.players - 1, "p": math.nan}
    expected = total / rows.players
    chi2 = math.fsum((o - expected) ** 2 / expected for o in observed)
    df = rows.players - 1
    return {"chi2": chi2, "df": df, "p": chi2_sf(chi2, df)}


def balance(rows: Rows) -> float:
    """Ludii's Balance: 1 − (the largest gap between two seats' win rates)."""
    rates = [r["rate"] for r in seat_win_rates(rows)]
    return 1.0 - (max(rates) - min(rates)) if rates else math.nan


def first_player_advantage(rows: Rows) -> dict[str, float]:
    """The win rate of the seat that took the game's first decision, against 1/n.

    ``advantage`` is that rate minus 1/n (0: no advantage). In a simultaneous
    game every round starts with p1 by convention, so this is p1's advantage.
    """
    if not rows.first_seat:
        return {"rate": math.nan, "low": math.nan, "high": math.nan, "advantage": math.nan}
    wins = math.fsum(s[f] for s, f in zip(rows.shares, rows.first_seat, strict=True) if f >= 0)
    out = rate(wins, rows.games)
    out["advantage"] = out["rate"] - 1.0 / rows.players
    return out


def shared_win_rate(rows: Rows) -> dict[str, float]:
    """The share of games won by more than one seat (a draw for the top place)."""
    shared = sum(1 for s in rows.shares if sum(1 for x in s if x > 0) > 1)
    return rate(shared, rows.games)


# ------------------------------------------------------------------ length
def length_stats(rows: Rows, bins: int = HISTOGRAM_BINS) -> dict[str, Any]:
    """Decisions per game: mean with interval, spread, range and a histogram."""
    values = [float(x) for x in rows.length]
    mean, low, high = stats.mean_interval(values)
    return {
        "mean": mean,
        "low": low,
        "high": high,
        "sd": _sd(values),
        "min": min(values) if values else math.nan,
        "max": max(values) if values else math.nan,
        "histogram": histogram(values, bins),
    }


def histogram(values: Sequence[float], bins: int = HISTOGRAM_BINS) -> dict[str, list[float]]:
    """Equal-width bins from min to max (whole-number edges when the values are whole)."""
    if not values:
        return {"edges": [], "counts": []}
    lo, hi = min(values), max(values)
    if all(float(v).is_integer() for v in values):
        width: float = max(1, math.ceil((hi - lo + 1) / bins))
        edges = [lo + i * width for i in range(math.ceil((hi - lo + 1) / width) + 1)]
    else:
        width = (hi - lo) / bins or 1.0
        edges = [lo + i * width for i in range(bins + 1)]
    counts = [0.0] * (len(edges) - 1)
    for v in values:
        i = min(int((v - lo) // width), len(counts) - 1)
        counts[i] += 1
    return {"edges": [float(e) for e in edges], "counts": counts}


# ------------------------------------------------------------------ scores
def score_stats(rows: Rows) -> dict[str, Any]:
    """Each seat's score distribution and the winning margin (winner over runner-up)."""
    per_seat = []
    for seat in range(rows.players):
        values = sorted(s[seat] for s in rows.scores)
        mean, low, high = stats.mean_interval(values)
        per_seat.append(
            {
                "mean": mean,
                "low": low,
                "high": high,
                "sd": _sd(values),
                "q10": _quantile(values, 0.1),
                "q25": _quantile(values, 0.25),
                "median": _quantile(values, 0.5),
                "q75": _quantile(values, 0.75),
                "q90": _quantile(values, 0.9),
            }
        )
    margins = [m for m in (winning_margin(rows.signed(s)) for s in rows.scores) if m is not None]
    mean, low, high = stats.mean_interval(margins)
    everything = [v for s in rows.scores for v in s]
    return {
        "per_seat": per_seat,
        "all": {"mean": _mean(everything), "sd": _sd(everything)},
        "margin": {"mean": mean, "low": low, "high": high, "sd": _sd(margins)},
        "histogram": histogram(everything),
    }


def winning_margin(signed_scores: Sequence[float]) -> float | None:
    """Best score minus the second best (0 for a tie at the top; None with one seat)."""
    if len(signed_scores) < 2:
        return None
    top = sorted(signed_scores, reverse=True)
    return top[0] - top[1]


# ------------------------------------------------------------- score traces
def _leaders(point: Sequence[float]) -> tuple[int, ...]:
    best = max(point)
    return tuple(i for i, v in enumerate(point) if v == best)


def lead_changes(trace: Sequence[Sequence[float]]) -> float:
    """LeadChange of one game: the share of steps after which the lead changed hands.

    The leader is the seat with the best score at a trace point when it is
    alone there (a tie at the top has no leader and changes nothing); a change
    is a new sole leader different from the last sole leader. The share is
    over the T − 1 steps between the T trace points (0 with fewer than two).
    """
    if len(trace) < 2:
        return 0.0
    changes = 0
    last: int | None = None
    for point in trace:
        top = _leaders(point)
        if len(top) == 1:
            if last is not None and top[0] != last:
                changes += 1
            last = top[0]
    return changes / (len(trace) - 1)


def drama(trace: Sequence[Sequence[float]], winner: int) -> dict[str, float]:
    """Drama of one game (Browne 2008): how far behind the eventual winner was.

    ``behind`` is the share of trace points at which the winner was not among
    the leaders; ``depth`` the mean, over those points, of the winner's deficit
    to the leader divided by the leader's absolute score (1 if it is 0).
    """
    if not trace:
        return {"behind": 0.0, "depth": 0.0}
    deficits = []
    for point in trace:
        best = max(point)
        if point[winner] < best:
            deficits.append((best - point[winner]) / (abs(best) or 1.0))
    return {
        "behind": len(deficits) / len(trace),
        "depth": _mean(deficits) if deficits else 0.0,
    }


def decided_at(trace: Sequence[Sequence[float]], winner: int) -> float:
    """The share of the game played before the eventual winner led for good.

    The first trace point from which the winner is among the leaders at every
    later point, divided by the number of points (0: led from the first scoring
    to the end; near 1: took the lead only at the very end).
    """
    if not trace:
        return 0.0
    first_good = len(trace)
    for t in range(len(trace) - 1, -1, -1):
        if winner in _leaders(trace[t]):
            first_good = t
        else:
            break
    return first_good / len(trace)


def trace_stats(rows: Rows) -> dict[str, Any]:
    """LeadChange, Drama and Decisiveness over the games with a trace and a sole winner."""
    lead: list[float] = []
    behind: list[float] = []
    depth: list[float] = []
    decided: list[float] = []
    for trace, shares in zip(rows.traces, rows.shares, strict=False):
        signed = [rows.signed(p) for p in trace]
        lead.append(lead_changes(signed))
        winners = [i for i, x in enumerate(shares) if x > 0]
        if len(winners) == 1:
            d = drama(signed, winners[0])
            behind.append(d["behind"])
            depth.append(d["depth"])
            decided.append(decided_at(signed, winners[0]))

    def summary(values: list[float]) -> dict[str, float]:
        mean, low, high = stats.mean_interval(values)
        return {"mean": mean, "low": low, "high": high, "n": len(values)}

    return {
        "lead_change": summary(lead),
        "drama_behind": summary(behind),
        "drama_depth": summary(depth),
        "decided_at": summary(decided),
        "decisiveness": {**summary([1.0 - x for x in decided])},
    }


# ------------------------------------------------------------------ events
def event_stats(rows: Rows) -> dict[str, dict[str, float]]:
    """Per counter: its mean per game (with interval) and the share of games where it is > 0."""
    keys = sorted({k for e in rows.events for k in e})
    out = {}
    for key in keys:
        values = [float(e.get(key, 0)) for e in rows.events]
        mean, low, high = stats.mean_interval(values)
        happened = rate(sum(1 for v in values if v > 0), len(values))
        out[key] = {
            "mean": mean,
            "low": low,
            "high": high,
            "rate": happened["rate"],
            "rate_low": happened["low"],
            "rate_high": happened["high"],
        }
    return out


# ------------------------------------------------------------------ agents
def agent_rates(rows: Rows) -> list[dict[str, Any]]:
    """Each agent's win share per seat it held, with a Wilson interval, and its mean score."""
    out = []
    for a, spec in enumerate(rows.agents):
        wins = 0.0
        seats = 0
        scores: list[float] = []
        for lineup, shares, sc in zip(rows.lineup, rows.shares, rows.scores, strict=True):
            for seat, who in enumerate(lineup):
                if who == a:
                    wins += shares[seat]
                    seats += 1
                    scores.append(sc[seat])
        mean, low, high = stats.mean_interval(scores)
        out.append(
            {
                "agent": spec,
                **rate(wins, seats),
                "score": mean,
                "score_low": low,
                "score_high": high,
            }
        )
    return out


def choice_sets(rows: Rows, depth: int | None = 1) -> list[tuple[tuple[int, ...], list[float]]]:
    """Each game as Plackett–Luce choices: (agents at the table, each seat's share of the pick).

    Depth 1 is who wins (the seats' win shares); deeper stages follow the
    finishing order by score, ties sharing a stage's pick equally.
    """
    out: list[tuple[tuple[int, ...], list[float]]] = []
    for lineup, shares, sc in zip(rows.lineup, rows.shares, rows.scores, strict=True):
        if sum(shares) > 0:
            out.append((tuple(lineup), list(shares)))
        if depth == 1:
            continue
        signed = rows.signed(sc)
        remaining = sorted(range(len(lineup)), key=lambda s: -signed[s])
        # the first stage (the winner) came from the shares; later stages by score
        top = [s for s, x in enumerate(shares) if x > 0] or [remaining[0]]
        remaining = [s for s in remaining if s not in top]
        stage = 1
        while len(remaining) > 1 and (depth is None or stage < depth):
            best = signed[remaining[0]]
            group = [s for s in remaining if signed[s] == best]
            picks = [1.0 / len(group) if s in group else 0.0 for s in remaining]
            out.append((tuple(lineup[s] for s in remaining), picks))
            remaining = [s for s in remaining if s not in group]
            stage += 1
    return out


def luce_statistics(
    choices: Iterable[tuple[tuple[int, ...], Sequence[float]]], agents: int
) -> tuple[list[float], dict[tuple[int, ...], float]]:
    """The sufficient statistics of Plackett–Luce choices: each agent's picks, and the
    total weight of each table composition (how many seats of each agent)."""
    wins = [0.0] * agents
    tables: dict[tuple[int, ...], float] = {}
    for table, picks in choices:
        weight = math.fsum(picks)
        if weight <= 0:
            continue
        for a, p in zip(table, picks, strict=True):
            wins[a] += p
        counts = [0] * agents
        for a in table:
            counts[a] += 1
        key = tuple(counts)
        tables[key] = tables.get(key, 0.0) + weight
    return wins, tables


def plackett_luce(
    choices: Iterable[tuple[tuple[int, ...], Sequence[float]]],
    agents: int,
    prior: float = 1.0,
    iterations: int = 5_000,
) -> list[float]:
    """Elo-scale ratings (mean 0) of the Plackett–Luce model, by Hunter's MM algorithm.

    Each choice is a table of agents (repeats allowed: four seats of ``greedy``)
    and each seat's share of the pick; the model says seat ``s`` is picked with
    probability γ(agent s) / Σ γ over the table. ``prior`` adds, for every pair
    of agents, that many virtual two-seat choices split evenly, which keeps an
    unbeaten agent finite and shrinks tiny samples towards equality.
    """
    wins, tables = luce_statistics(choices, agents)
    return fit_luce(wins, tables, prior, iterations)


def fit_luce(
    wins: Sequence[float],
    tables: Mapping[tuple[int, ...], float],
    prior: float = 1.0,
    iterations: int = 5_000,
) -> list[float]:
    """:func:`plackett_luce` from its sufficient statistics (see :func:`luce_statistics`)."""
    agents = len(wins)
    w = list(wins)
    items = [(k, v) for k, v in tables.items() if v > 0]
    if prior > 0:
        for i in range(agents):
            for j in range(i + 1, agents):
                counts = [0] * agents
                counts[i] = counts[j] = 1
                items.append((tuple(counts), prior))
                w[i] += prior / 2
                w[j] += prior / 2
    gamma = [1.0] * agents
    for _ in range(iterations):
        denom = [0.0] * agents
        for table, weight in items:
            total = sum(c * g for c, g in zip(table, gamma, strict=True))
            for a, c in enumerate(table):
                if c:
                    denom[a] += weight * c / total
        new = [w[a] / denom[a] if denom[a] > 0 else gamma[a] for a in range(agents)]
        logs = [math.log(g) if g > 0 else -700.0 for g in new]
        shift = _mean(logs)
        new = [math.exp(v - shift) for v in logs]
        change = max(abs(x - y) / y for x, y in zip(new, gamma, strict=True))
        gamma = new
        if change < 1e-12:
            break
    return [400.0 * math.log10(g) if g > 0 else -math.inf for g in gamma]


def ratings(
    rows: Rows, depth: int | None = 1, samples: int = 200, seed: int = 0
) -> list[dict[str, Any]]:
    """Plackett–Luce ratings with 95% bootstrap intervals over deals (the independent unit).

    Solo games have no table to choose from: they get no ratings here.
    """
    import numpy as np

    k = len(rows.agents)
    if k < 2 or rows.players < 2:
        return []
    deals = rows.deal or list(range(rows.games))
    groups: dict[int, list[int]] = {}
    for i, d in enumerate(deals):
        groups.setdefault(d, []).append(i)
    keys: dict[tuple[int, ...], int] = {}
    deal_wins: list[list[float]] = []
    deal_tables: list[dict[int, float]] = []
    for idx in groups.values():
        wins, tables = luce_statistics(choice_sets(_subset(rows, idx), depth), k)
        deal_wins.append(wins)
        deal_tables.append({keys.setdefault(key, len(keys)): v for key, v in tables.items()})
    w_matrix = np.array(deal_wins, dtype=float)
    t_matrix = np.zeros((len(deal_tables), len(keys)))
    for d, by_key in enumerate(deal_tables):
        for j, v in by_key.items():
            t_matrix[d, j] = v
    key_list = list(keys)

    def fit(weights: Any, iterations: int) -> list[float]:
        wins = (weights @ w_matrix).tolist()
        totals = (weights @ t_matrix).tolist()
        return fit_luce(wins, dict(zip(key_list, totals, strict=True)), iterations=iterations)

    point = fit(np.ones(len(deal_tables)), 5_000)
    out: list[dict[str, Any]] = [
        {"agent": a, "elo": point[i], "low": math.nan, "high": math.nan}
        for i, a in enumerate(rows.agents)
    ]
    n = len(deal_tables)
    if n >= 5 and samples > 0:
        rng = np.random.default_rng(derive_seed(seed, 0xB007))
        draws = [fit(np.bincount(rng.integers(0, n, n), minlength=n), 500) for _ in range(samples)]
        for i in range(k):
            column = sorted(d[i] for d in draws)
            out[i]["low"] = column[int(0.025 * (samples - 1))]
            out[i]["high"] = column[math.ceil(0.975 * (samples - 1))]
    return out


LucePattern = tuple[tuple[float, ...], tuple[tuple[tuple[int, ...], float], ...]]
"""One deal's Plackett–Luce statistics (:func:`luce_statistics`): each agent's picks,
and each table composition's weight. Deals with the same pattern contribute the same."""


def luce_pattern(rows: Rows, depth: int | None = 1) -> LucePattern:
    """The pattern of one deal's games (``rows`` holds that deal only)."""
    wins, tables = luce_statistics(choice_sets(rows, depth), len(rows.agents))
    return tuple(wins), tuple(sorted(tables.items()))


def pattern_ratings(
    agents: Sequence[str],
    patterns: Mapping[LucePattern, int],
    samples: int = 200,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """:func:`ratings` from how many deals had each pattern, in memory bounded by the
    game's combinatorics rather than by the number of deals.

    The point ratings are those of :func:`ratings` on the same deals (to rounding:
    the sums are taken in another order). The bootstrap draws each pattern's
    count from a multinomial over the observed patterns, which is exactly the
    distribution of resampling the deals one by one; its draws are not the
    same draws as :func:`ratings` makes, so the intervals differ from its by
    Monte Carlo noise, and are as reproducible from the seed.
    """
    import numpy as np

    k = len(agents)
    if k < 2 or not patterns:
        return []
    keys: dict[tuple[int, ...], int] = {}
    for _, tables in patterns:
        for key, _ in tables:
            keys.setdefault(key, len(keys))
    w_matrix = np.array([wins for wins, _ in patterns], dtype=float).reshape(len(patterns), k)
    t_matrix = np.zeros((len(patterns), len(keys)))
    for p, (_, tables) in enumerate(patterns):
        for key, v in tables:
            t_matrix[p, keys[key]] = v
    counts = np.array(list(patterns.values()), dtype=np.int64)
    key_list = list(keys)

    def fit(weights: Any, iterations: int) -> list[float]:
        wins = (weights @ w_matrix).tolist()
        totals = (weights @ t_matrix).tolist()
        return fit_luce(wins, dict(zip(key_list, totals, strict=True)), iterations=iterations)

    point = fit(counts.astype(float), 5_000)
    out: list[dict[str, Any]] = [
        {"agent": a, "elo": point[i], "low": math.nan, "high": math.nan}
        for i, a in enumerate(agents)
    ]
    n = int(counts.sum())
    if n >= 5 and samples > 0:
        rng = np.random.default_rng(derive_seed(seed, 0xB007))
        share = counts / n
        draws = [fit(rng.multinomial(n, share).astype(float), 500) for _ in range(samples)]
        for i in range(k):
            column = sorted(d[i] for d in draws)
            out[i]["low"] = column[int(0.025 * (samples - 1))]
            out[i]["high"] = column[math.ceil(0.975 * (samples - 1))]
    return out


def _subset(rows: Rows, idx: Sequence[int]) -> Rows:
    return Rows(
        players=rows.players,
        agents=rows.agents,
        lineup=[rows.lineup[i] for i in idx],
        scores=[rows.scores[i] for i in idx],
        shares=[rows.shares[i] for i in idx],
        length=[rows.length[i] for i in idx],
        lower_is_better=rows.lower_is_better,
    )


# ----------------------------------------------------------------- summary
def summarize(rows: Rows, seed: int = 0, bootstrap: int = 200) -> dict[str, Any]:
    """Every metric of docs/metrics.md for one simulation, JSON-ready."""
    out: dict[str, Any] = {
        "games": rows.games,
        "players": rows.players,
        "agents": rows.agents,
        "seat_win_rates": seat_win_rates(rows),
        "seat_chi_square": seat_chi_square(rows),
        "balance": balance(rows),
        "first_player": first_player_advantage(rows),
        "shared_wins": shared_win_rate(rows),
        "length": length_stats(rows),
        "scores": score_stats(rows),
        "agent_rates": agent_rates(rows),
        "ratings": ratings(rows, samples=bootstrap, seed=seed),
        "events": event_stats(rows),
    }
    if rows.traces:
        out["trace"] = trace_stats(rows)
    cleaned: dict[str, Any] = finite(out)
    return cleaned


def finite(obj: Any) -> Any:
    """JSON has no NaN or infinity: write them as null."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, Mapping):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [finite(v) for v in obj]
    return obj
