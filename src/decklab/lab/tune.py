"""``decklab tune``: search a game's options for the rules that best meet a designer's goals.

The search is *successive halving* (Jamieson & Talwalkar 2016), a simple bandit
that spends few games on poor candidates and many on good ones, in the spirit
of TAG's NTBEA tuning but much easier to state exactly:

1. The candidates are the grid of the parameters (``--param target=20..200``
   is cut into ``points`` evenly spaced whole numbers; ``--param k=a,b,c``
   lists values); a grid larger than ``candidates`` is sampled (seeded).
2. Round 0 plays ``games`` games of every candidate; each later round keeps
   the better half (by goal score) and plays each survivor's next ``games × 2^r``
   games, until one candidate is left or the rounds run out.
3. Every candidate is ranked by its goal score over all its games, with a
   95% bootstrap interval over deals.

Goals: ``metric=lo..hi`` (want the metric inside the range: score 1 inside,
falling linearly to 0 one range-width outside), ``metric=max`` / ``metric=min``
(for rates in [0, 1]: the value, or 1 − value; for any other metric a monotone
map of the value into (0, 1), ½ + ½·v/(1 + |v|), so ``score=min`` ranks by the
score). A candidate's goal score is the mean over goals. Metrics: ``length``
(decisions per game), ``balance``, ``first_player`` (the first mover's win rate
minus 1/n, as a magnitude), ``shared_wins``, ``lead_change``, ``margin``
(winning margin), ``score`` (the mean of every seat's score, in the game's
units: a solo game's score), or the mean of any event counter the game's
metrics hook reports (``rounds``, ``round_cap_reached`` …). Every goal's metric
is checked before anything is played (the game's events are learned from one
random game, which is not a round of the search).

Each evaluation is an ordinary simulation folder under ``DIR/cand-…/round-r``,
so the cache is the disk: rerunning the same command skips everything done and
resumes what was interrupted.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import decklab
from decklab.engine.errors import DecklabError
from decklab.lab import metrics
from decklab.lab.runner import LOCAL, MANIFEST, Backend, Plan, derive_seed, make_plan
from decklab.lab.simulate import run_plan
from decklab.lab.sweep import PLAYERS

TUNE = "tune.json"
BUILTIN_GOALS = (
    "length",
    "balance",
    "first_player",
    "shared_wins",
    "lead_change",
    "margin",
    "score",
)
RATE_GOALS = frozenset({"balance", "first_player", "shared_wins", "lead_change"})
"""Goals whose values lie in [0, 1]: ``max`` and ``min`` score them as the value (or
1 − value). Any other metric (a length, a score, an event's mean) is unbounded, and is
scored through a monotone map into (0, 1), so that ranking by it is ranking by the value."""


class TuneError(DecklabError):
    """A tuning request that cannot be run as asked."""


# ------------------------------------------------------------------ parsing
def parse_params(items: Sequence[str], points: int = 6) -> dict[str, list[str]]:
    """``target=20..200`` → evenly spaced whole numbers; ``k=a,b`` → those values."""
    out: dict[str, list[str]] = {}
    for item in items:
        key, sep, spec = item.partition("=")
        key, spec = key.strip(), spec.strip()
        if not sep or not key or not spec:
            raise TuneError(f"--param is written key=lo..hi or key=a,b,c, not {item!r}")
        m = re.fullmatch(r"(-?\d+)\s*\.\.\s*(-?\d+)", spec)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if hi < lo:
                raise TuneError(f"--param {key}: the range {spec} is empty")
            count = min(points, hi - lo + 1)
            values = sorted({round(lo + (hi - lo) * i / max(1, count - 1)) for i in range(count)})
            out[key] = [str(v) for v in values]
        else:
            out[key] = [v.strip() for v in spec.split(",") if v.strip()]
    if not out:
        raise TuneError("name at least one --param to tune")
    return out


@dataclass(frozen=True)
class Goal:
    metric: str
    kind: str
    """``range``, ``max`` or ``min``."""
    low: float = math.nan
    high: float = math.nan

    def text(self) -> str:
        if self.kind == "range":
            return f"{self.metric}={self.low:g}..{self.high:g}"
        return f"{self.metric}={self.kind}"

    def score(self, value: float) -> float:
        """How well ``value`` meets the goal, in [0, 1]."""
        if math.isnan(value):
            return 0.0
        if self.kind in ("max", "min") and self.metric not in RATE_GOALS:
            squashed = 0.5 + 0.5 * value / (1.0 + abs(value))
            return squashed if self.kind == "max" else 1.0 - squashed
        if self.kind == "max":
            return min(1.0, max(0.0, value))
        if self.kind == "min":
            return min(1.0, max(0.0, 1.0 - value))
        if self.low <= value <= self.high:
            return 1.0
        width = max(self.high - self.low, 1e-9)
        distance = self.low - value if value < self.low else value - self.high
        return max(0.0, 1.0 - distance / width)


def parse_goals(items: Sequence[str]) -> list[Goal]:
    goals = []
    for item in items:
        key, sep, spec = item.partition("=")
        key, spec = key.strip(), spec.strip().lower()
        if not sep or not key or not spec:
            raise TuneError(
                f"--goal is written metric=lo..hi, metric=max or metric=min, not {item!r}"
            )
        if spec in ("max", "min"):
            goals.append(Goal(key, spec))
            continue
        m = re.fullmatch(r"(-?[\d.]+)\s*\.\.\s*(-?[\d.]+)", spec)
        if not m:
            raise TuneError(f"--goal {key}: want lo..hi, max or min, not {spec!r}")
        lo, hi = float(m.group(1)), float(m.group(2))
        if hi < lo:
            raise TuneError(f"--goal {key}: the range {spec} is empty")
        goals.append(Goal(key, "range", lo, hi))
    if not goals:
        raise TuneError("name at least one --goal")
    return goals


# ------------------------------------------------------------ goal metrics
def game_features(rows: metrics.Rows, goals: Sequence[Goal]) -> tuple[list[str], list[list[float]]]:
    """Per game, the numbers the goals average: a cheap basis for the bootstrap."""
    names: list[str] = []
    for g in goals:
        if g.metric == "balance":
            names.extend(f"seat{s}" for s in range(rows.players))
        elif g.metric not in names:
            names.append(g.metric)
    names = list(dict.fromkeys(names))
    table: list[list[float]] = []
    for i in range(rows.games):
        row = []
        for name in names:
            row.append(_feature(rows, i, name))
        table.append(row)
    return names, table


def _feature(rows: metrics.Rows, i: int, name: str) -> float:
    if name.startswith("seat") and name[4:].isdigit():
        return rows.shares[i][int(name[4:])]
    if name == "length":
        return float(rows.length[i])
    if name == "first_player":
        f = rows.first_seat[i] if rows.first_seat else 0
        return rows.shares[i][f] - 1.0 / rows.players
    if name == "shared_wins":
        return float(sum(1 for x in rows.shares[i] if x > 0) > 1)
    if name == "lead_change":
        trace = rows.traces[i] if rows.traces else []
        return metrics.lead_changes([rows.signed(p) for p in trace])
    if name == "margin":
        m = metrics.winning_margin(rows.signed(rows.scores[i]))
        return 0.0 if m is None else m
    if name == "score":
        return math.fsum(rows.scores[i]) / len(rows.scores[i])
    events = rows.events[i] if rows.events else {}
    if name in events:
        return float(events[name])
    raise TuneError(
        f"no metric {name!r} (metrics: {', '.join(BUILTIN_GOALS)}, or an event: "
        f"{', '.join(sorted(events)) or 'this game reports none'})"
    )


def event_names(plan: Plan) -> list[str]:
    """The event counters a game reports, from one random game of the plan's table."""
    from decklab.engine.registry import get_game
    from decklab.lab.agents import build_agent
    from decklab.lab.hooks import events_of
    from decklab.lab.loop import play_game

    state = get_game(plan.game).new(plan.players, plan.options, seed=plan.seed)
    agents = [build_agent("random:seed=0") for _ in range(plan.players)]
    play_game(state, agents, False)
    return sorted(events_of(state))


def check_goals(goals: Sequence[Goal], plan: Plan) -> None:
    """Refuse a goal whose metric the game does not report, before any round is played."""
    unknown = [g.metric for g in goals if g.metric not in BUILTIN_GOALS]
    if not unknown:
        return
    events = event_names(plan)
    for name in unknown:
        if name not in events:
            raise TuneError(
                f"no metric {name!r} (metrics: {', '.join(BUILTIN_GOALS)}, or an event: "
                f"{', '.join(events) or 'this game reports none'})"
            )


def goal_values(
    names: Sequence[str], means: Sequence[float], goals: Sequence[Goal], players: int
) -> dict[str, float]:
    by = dict(zip(names, means, strict=True))
    out = {}
    for g in goals:
        if g.metric == "balance":
            seats = [by[f"seat{s}"] for s in range(players)]
            out[g.metric] = 1.0 - (max(seats) - min(seats))
        elif g.metric == "first_player":
            out[g.metric] = abs(by[g.metric])
        else:
            out[g.metric] = by[g.metric]
    return out


def goal_score(values: Mapping[str, float], goals: Sequence[Goal]) -> float:
    return math.fsum(g.score(values[g.metric]) for g in goals) / len(goals)


def evaluate(
    rows: metrics.Rows, goals: Sequence[Goal], seed: int, samples: int = 200
) -> dict[str, Any]:
    """A candidate's goal values and goal score, with a 95% bootstrap interval over deals."""
    import numpy as np

    names, table = game_features(rows, goals)
    x = np.array(table, dtype=float).reshape(len(table), len(names))
    deals = rows.deal or list(range(rows.games))
    ids: dict[int, int] = {}
    deal_index = np.array([ids.setdefault(d, len(ids)) for d in deals])
    n = len(ids)
    values = goal_values(names, x.mean(axis=0).tolist(), goals, rows.players)
    score = goal_score(values, goals)
    low = high = score
    if n >= 5:
        rng = np.random.default_rng(derive_seed(seed, 0x70E))
        draws = []
        for _ in range(samples):
            counts = np.bincount(rng.integers(0, n, n), minlength=n)[deal_index].astype(float)
            means = (counts @ x) / counts.sum()
            draws.append(goal_score(goal_values(names, means.tolist(), goals, rows.players), goals))
        draws.sort()
        low, high = draws[int(0.025 * (samples - 1))], draws[math.ceil(0.975 * (samples - 1))]
    return {
        "goals": values,
        "score": score,
        "score_low": low,
        "score_high": high,
        "games": rows.games,
    }


# ------------------------------------------------------------------ search
def candidate_grid(
    params: Mapping[str, Sequence[str]], limit: int, seed: int
) -> list[dict[str, str]]:
    keys = list(params)
    grid = [
        dict(zip(keys, combo, strict=True))
        for combo in itertools.product(*(params[k] for k in keys))
    ]
    if len(grid) > limit:
        rng = random.Random(derive_seed(seed, 0xCA2D))
        grid = sorted(rng.sample(grid, limit), key=grid.index)
    return grid


def _slug(params: Mapping[str, str]) -> str:
    return "cand-" + re.sub(
        r"[^A-Za-z0-9_.=-]", "_", "__".join(f"{k}-{v}" for k, v in params.items())
    )


def tune(
    game: str,
    specs: Sequence[str],
    params: Mapping[str, Sequence[str]],
    goals: Sequence[Goal],
    out: Path,
    *,
    games: int = 100,
    rounds: int = 3,
    candidates: int = 16,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    backend: Backend = LOCAL,
    progress: bool = False,
    on_round: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Run (or resume) the search into ``out``; returns the ranked numbers of :func:`report_numbers`."""
    grid = candidate_grid(params, candidates, seed)
    request = {
        "kind": "tune",
        "game": game,
        "specs": list(specs),
        "params": {k: list(v) for k, v in params.items()},
        "goals": [g.text() for g in goals],
        "games": games,
        "rounds": rounds,
        "candidates": grid,
        "seed": seed,
        "options": dict(options or {}),
        "players": players,
        "decklab_version": decklab.__version__,
    }
    plans = {}
    for cand in grid:  # check every candidate and goal before anything is written or played
        plans[_slug(cand)] = _plans(game, specs, cand, options, players, games, rounds, seed)
    check_goals(goals, plans[_slug(grid[0])][0])
    created = not (out / TUNE).exists()
    _write_request(out, request)
    try:
        _search(out, grid, plans, goals, rounds, seed, backend, progress, on_round)
    except DecklabError:
        if created and not any(p.name != TUNE for p in out.iterdir()):
            # Refused before anything was played: leave no request behind, so the
            # corrected command is not refused as "a different tuning run".
            (out / TUNE).unlink()
            out.rmdir()
        raise
    return report_numbers(out)


def _search(
    out: Path,
    grid: Sequence[Mapping[str, str]],
    plans: Mapping[str, Sequence[Plan]],
    goals: Sequence[Goal],
    rounds: int,
    seed: int,
    backend: Backend,
    progress: bool,
    on_round: Callable[[int, int], None] | None,
) -> None:
    """The rounds of successive halving (each evaluation a resumable simulation folder)."""
    alive = list(grid)
    for r in range(rounds):
        if on_round is not None:
            on_round(r, len(alive))
        for cand in alive:
            plan = plans[_slug(cand)][r]
            run_plan(plan, out / _slug(cand) / f"round-{r}", backend=backend, progress=progress,
                     title=f"round {r}: " + ", ".join(f"{k}={v}" for k, v in cand.items()))  # fmt: skip
        if len(alive) == 1 or r == rounds - 1:
            break
        scored = sorted(alive, key=lambda c: -_evaluate_candidate(out, c, goals, seed)["score"])
        alive = scored[: max(1, math.ceil(len(alive) / 2))]


def _plans(
    game: str,
    specs: Sequence[str],
    cand: Mapping[str, str],
    options: Mapping[str, Any] | None,
    players: int | None,
    games: int,
    rounds: int,
    seed: int,
) -> list[Plan]:
    opts = dict(options or {})
    n = players
    for key, value in cand.items():
        if key == PLAYERS:
            try:
                n = int(value)
            except ValueError:
                raise TuneError(f"players is a whole number, not {value!r}") from None
        else:
            opts[key] = value
    try:
        return [
            make_plan(game, specs, games * 2**r, seed=derive_seed(seed, r), options=opts, players=n)
            for r in range(rounds)
        ]
    except DecklabError as exc:
        label = ", ".join(f"{k}={v}" for k, v in cand.items())
        raise TuneError(f"candidate {label}: {exc}") from None


def _write_request(out: Path, request: dict[str, Any]) -> None:
    index = out / TUNE
    if index.exists():
        old = json.loads(index.read_text(encoding="utf-8"))
        same = {k: v for k, v in old.items() if k != "decklab_version"}
        if same != {k: v for k, v in request.items() if k != "decklab_version"}:
            raise TuneError(
                f"{out} holds a different tuning run: choose another --out, or delete it"
            )
        return
    if out.exists() and any(out.iterdir()):
        raise TuneError(f"{out} is not empty and holds no decklab tuning run: choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    tmp = index.with_suffix(".tmp")
    tmp.write_text(json.dumps(request, indent=2), encoding="utf-8")
    os.replace(tmp, index)


def _candidate_rows(out: Path, cand: Mapping[str, str]) -> metrics.Rows | None:
    folders = sorted((out / _slug(cand)).glob("round-*"))
    parts = [metrics.load(f) for f in folders if (f / MANIFEST).exists()]
    parts = [p for p in parts if p.games]
    if not parts:
        return None
    rows = parts[0]
    for k, extra in enumerate(parts[1:], 1):
        offset = k << 40  # keep deals of different rounds apart in the bootstrap
        rows = metrics.Rows(
            players=rows.players,
            agents=rows.agents,
            lineup=rows.lineup + extra.lineup,
            scores=rows.scores + extra.scores,
            shares=rows.shares + extra.shares,
            length=rows.length + extra.length,
            deal=rows.deal + [d + offset for d in extra.deal],
            first_seat=rows.first_seat + extra.first_seat,
            traces=rows.traces + extra.traces,
            events=rows.events + extra.events,
            lower_is_better=rows.lower_is_better,
        )
    return rows


def _evaluate_candidate(
    out: Path, cand: Mapping[str, str], goals: Sequence[Goal], seed: int
) -> dict[str, Any]:
    rows = _candidate_rows(out, cand)
    if rows is None:
        return {
            "goals": {},
            "score": -1.0,
            "score_low": math.nan,
            "score_high": math.nan,
            "games": 0,
        }
    return evaluate(rows, goals, seed)


def report_numbers(out: Path) -> dict[str, Any]:
    """Every evaluated candidate of a tuning folder, best first, with intervals."""
    request = json.loads((out / TUNE).read_text(encoding="utf-8"))
    goals = parse_goals(request["goals"])
    ranked = []
    for cand in request["candidates"]:
        result = _evaluate_candidate(out, cand, goals, request["seed"])
        if result["games"]:
            ranked.append({"params": cand, **result})
    ranked.sort(key=lambda c: (-c["score"], -c["games"]))
    data = {
        "game": request["game"],
        "goals": request["goals"],
        "goal_names": [g.metric for g in goals],
        "params": [f"{k}={','.join(v)}" for k, v in request["params"].items()],
        "specs": request["specs"],
        "ranked": ranked,
    }
    cleaned: dict[str, Any] = metrics.finite(data)
    return cleaned
