"""Two variants compared deal by deal: every metric's paired difference (B − A).

Used by ``decklab compare A B`` (two simulation folders) and by the report of a
sweep (every cell against the first). Each metric is reduced to one value per
deal (the mean over the deal's seat rotations), the deals both runs played are
paired by number, and :mod:`decklab.lab.paired` gives the intervals, the test,
the minimum detectable effect and, across all the tests of one page, Holm's
correction and the verdict.

Nothing here knows a game. Solo games (one seat) are compared on what a solo
player cares about: the mean score and the share of perfect games (a solo
game's winners are its perfect games), not on seats' win shares.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decklab.engine.errors import DecklabError
from decklab.engine.registry import base_game
from decklab.lab import metrics, paired
from decklab.lab.runner import MANIFEST, derive_seed, read_plan


class CompareError(DecklabError):
    """Two runs that cannot be compared (no run, another game, no common deal)."""


def _agent_labels(a: metrics.Rows, b: metrics.Rows) -> list[str]:
    """The agents' names when both runs seat the same specs; else their positions."""
    if a.agents == b.agents:
        return list(a.agents)
    return [f"agent {i + 1}" for i in range(max(len(a.agents), len(b.agents)))]


def game_values(rows: metrics.Rows, i: int, labels: Sequence[str]) -> dict[str, float]:
    """Every compared metric of game ``i`` (agents named by ``labels``, by index)."""
    out: dict[str, float] = {}
    scores, shares = rows.scores[i], rows.shares[i]
    solo = rows.players == 1
    by_agent: dict[int, list[float]] = {}
    wins_by_agent: dict[int, list[float]] = {}
    for seat, who in enumerate(rows.lineup[i]):
        by_agent.setdefault(who, []).append(scores[seat])
        wins_by_agent.setdefault(who, []).append(shares[seat])
    several = len(rows.agents) > 1
    for who, values in by_agent.items():
        label = labels[who] if who < len(labels) else f"agent {who + 1}"
        score_key = f"score ({label})" if several else "score"
        out[score_key] = math.fsum(values) / len(values)
        win_key = "perfect games" if solo else "wins"
        win_key = f"{win_key} ({label})" if several else win_key
        out[win_key] = math.fsum(wins_by_agent[who]) / len(wins_by_agent[who])
    out["length"] = float(rows.length[i])
    if not solo:
        if rows.first_seat and rows.first_seat[i] >= 0:
            out["first player wins"] = shares[rows.first_seat[i]]
        out["shared wins"] = float(sum(1 for x in shares if x > 0) > 1)
        margin = metrics.winning_margin(rows.signed(scores))
        if margin is not None:
            out["winning margin"] = margin
        if rows.traces:
            out["lead change"] = metrics.lead_changes([rows.signed(p) for p in rows.traces[i]])
    if rows.events:
        for name, value in rows.events[i].items():
            out[name.replace("_", " ")] = float(value)
    return out


def deal_values(rows: metrics.Rows, labels: Sequence[str]) -> dict[int, dict[str, float]]:
    """Per deal, each metric's mean over the deal's games (its seat rotations)."""
    sums: dict[int, dict[str, list[float]]] = {}
    deals = rows.deal or list(range(rows.games))
    for i, d in enumerate(deals):
        per = sums.setdefault(d, {})
        for key, value in game_values(rows, i, labels).items():
            per.setdefault(key, []).append(value)
    return {
        d: {k: math.fsum(v) / len(v) for k, v in per.items()} for d, per in sorted(sums.items())
    }


@dataclass(frozen=True)
class Difference:
    """One metric's paired difference between two variants (before Holm)."""

    metric: str
    n: int
    a_mean: float
    b_mean: float
    t: paired.PairedT
    boot_low: float
    boot_high: float
    mde: float

    def to_json(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "deals": self.n,
            "a_mean": self.a_mean,
            "b_mean": self.b_mean,
            "difference": self.t.mean,
            "t_low": self.t.low,
            "t_high": self.t.high,
            "bootstrap_low": self.boot_low,
            "bootstrap_high": self.boot_high,
            "p": self.t.p,
            "mde": self.mde,
        }


def compare_rows(a: metrics.Rows, b: metrics.Rows, seed: int = 0) -> list[Difference]:
    """Every metric both runs report, paired over the deals both played."""
    labels = _agent_labels(a, b)
    va, vb = deal_values(a, labels), deal_values(b, labels)
    common = [d for d in va if d in vb]
    if not common:
        raise CompareError("the two runs have no deal in common (deal numbers from 0 up)")
    keys = [k for k in va[common[0]] if k in vb[common[0]]]
    out = []
    for k, key in enumerate(keys):
        pairs = [(va[d][key], vb[d][key]) for d in common if key in va[d] and key in vb[d]]
        diffs = [y - x for x, y in pairs]
        t = paired.paired_t(diffs)
        low, high = paired.bootstrap_interval(diffs, derive_seed(seed, 0xD1FF, k))
        out.append(
            Difference(
                metric=key,
                n=len(diffs),
                a_mean=math.fsum(x for x, _ in pairs) / len(pairs),
                b_mean=math.fsum(y for _, y in pairs) / len(pairs),
                t=t,
                boot_low=low,
                boot_high=high,
                mde=paired.mde(t.sd, t.n),
            )
        )
    return out


def decide(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Holm's correction across all of a page's tests, and each one's verdict.

    ``rows`` are :meth:`Difference.to_json` dicts (any extra keys are kept);
    each gets ``holm_p``, ``verdict`` and ``tests`` (how many were corrected for).
    """
    adjusted = paired.holm([math.nan if r["p"] is None else float(r["p"]) for r in rows])
    out = []
    for r, p in zip(rows, adjusted, strict=True):
        out.append({**r, "holm_p": p, "verdict": paired.verdict(int(r["deals"]), p)})
    tests = sum(1 for p in adjusted if not math.isnan(p))
    for r in out:
        r["tests"] = tests
    return out


def _family(game: str) -> str:
    """A game's base game (a variant plugin compares with the game it varies)."""
    try:
        return base_game(game)
    except (KeyError, ImportError):
        return game  # not installed here: compared by name only


def compare_folders(a: Path, b: Path, seed: int = 0) -> dict[str, Any]:
    """``decklab compare A B``: every metric's paired difference, Holm-corrected."""
    for folder in (a, b):
        if not (folder / MANIFEST).exists():
            raise CompareError(
                f"{folder} holds no decklab simulation (a sweep's cell-… folder is one)"
            )
    plan_a, plan_b = read_plan(a), read_plan(b)
    if plan_a.game != plan_b.game and _family(plan_a.game) != _family(plan_b.game):
        raise CompareError(
            f"{a} is {plan_a.game} and {b} is {plan_b.game}: compare one game "
            "(or a variant with its base game)"
        )
    rows_a, rows_b = metrics.load(a), metrics.load(b)
    diffs = decide([d.to_json() for d in compare_rows(rows_a, rows_b, seed)])
    data = {
        "game": plan_a.game,
        "game_b": plan_b.game,
        "a": str(a),
        "b": str(b),
        "same_seed": plan_a.seed == plan_b.seed,
        "alpha": paired.ALPHA,
        "min_deals": paired.MIN_DEALS,
        "differences": diffs,
    }
    cleaned: dict[str, Any] = metrics.finite(data)
    return cleaned
