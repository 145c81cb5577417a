"""The arena: agents play many deals of a game, and the report says honestly who is better.

Honest means three things here:

- *Duplicate deals.* Each deal (a seed: the same cards and the same future of
  chance) is played once per seat rotation, so every agent meets the same luck
  from every seat and the luck cancels out of the comparison.
- *Intervals, not just rates.* Win rates carry 95% Wilson intervals, scores
  and lengths 95% normal intervals, ratings bootstrap intervals over deals
  (the deal, not the game, is the independent unit).
- *A stopping rule that keeps its error rates.* With ``sprt=(elo0, elo1)`` the
  match stops as soon as a sequential probability ratio test decides, as
  chess engine testing does, instead of peeking at a running win rate.

The games are played by the lab's one runner (:mod:`decklab.lab.runner`):
deals in batches per task, agents built once per worker. Every random choice
(the deal seed, each agent's seed) is derived from the arena seed and the
deal's number, and results are consumed in deal order, so the report is the
same whatever the number of worker processes or the backend (given budgets in
iterations, not seconds). Games are not kept: the report is built from running
aggregates (:class:`Totals`), so memory stays flat in the number of games.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from decklab.bots.registry import is_fair
from decklab.bots.spec import with_seed
from decklab.engine.errors import DecklabError
from decklab.engine.registry import get_game
from decklab.engine.state import seat_name
from decklab.lab import stats
from decklab.lab.agents import build_agent
from decklab.lab.runner import (
    Backend,
    Batch,
    agent_seed,
    derive_seed,
    make_plan,
    resolve_players,
    resume_batches,
    run_batches,
    seat_lineups,
)

__all__ = [
    "ArenaError",
    "ArenaReport",
    "DealJob",
    "GameResult",
    "Totals",
    "agent_seed_spec",
    "derive_seed",
    "play_deal",
    "resolve_players",
    "run_arena",
    "seat_lineups",
]
BOOTSTRAP_SAMPLES = 200
MIN_BOOTSTRAP_DEALS = 5
"""Fewer deals than this get ratings without intervals (shown as —, null in JSON)."""
SPRT_MIN_DEALS = 10
"""The SPRT may not stop before this many deals: its variance estimate needs a few."""


class ArenaError(DecklabError):
    """An arena that cannot be run as asked (bad players, game, budget or test)."""


# ------------------------------------------------------------------ playing
@dataclass(frozen=True)
class DealJob:
    """One deal's games, played with freshly built agents: the reference that the
    runner's batches (agents reused and reseeded) must reproduce exactly."""

    game: str
    players: int
    options: dict[str, Any]
    agents: tuple[str, ...]
    lineups: tuple[tuple[int, ...], ...]
    deal: int
    seed: int


@dataclass(frozen=True)
class GameResult:
    """What one game of a deal produced."""

    deal: int
    rotation: int
    lineup: tuple[int, ...]
    """Agent index in each seat."""
    scores: tuple[float, ...]
    shares: tuple[float, ...]
    """Each seat's share of the win (1/k for a win shared by k seats)."""
    decisions: int
    seat_decisions: tuple[int, ...]


def agent_seed_spec(spec: str, deal_seed: int, rotation: int, seat: int) -> str:
    """The spec with a seed of its own for this deal, rotation and seat.

    A seed in the spec is kept as an input rather than used as is, so that an
    agent does not replay the same random choices in every deal.
    """
    return with_seed(spec, agent_seed(spec, deal_seed, rotation, seat))


def play_deal(job: DealJob) -> list[GameResult]:
    """Play every rotation of one deal, building every agent afresh (slow; the reference)."""
    cls = get_game(job.game)
    results = []
    for rotation, lineup in enumerate(job.lineups):
        agents = [
            build_agent(agent_seed_spec(job.agents[a], job.seed, rotation, seat))
            for seat, a in enumerate(lineup)
        ]
        state = cls.new(job.players, job.options, seed=job.seed)
        moves = [0] * job.players
        while True:
            acting = state.to_act()
            if not acting:
                break
            seat = acting[0]
            action = agents[seat].choose(state, seat)
            moves[seat] += 1
            state.apply(seat, action)
        results.append(
            GameResult(
                deal=job.deal,
                rotation=rotation,
                lineup=lineup,
                scores=tuple(float(s) for s in state.scores()),
                shares=tuple(state.returns()),
                decisions=sum(moves),
                seat_decisions=tuple(moves),
            )
        )
    return results


def batch_results(batch: Batch) -> list[list[GameResult]]:
    """A runner batch's rows as the arena's games, grouped by deal."""
    cols = batch.columns
    deals: dict[int, list[GameResult]] = {}
    for i, deal in enumerate(cols["deal"]):
        deals.setdefault(deal, []).append(
            GameResult(
                deal=deal,
                rotation=cols["rotation"][i],
                lineup=tuple(cols["lineup"][i]),
                scores=tuple(cols["scores"][i]),
                shares=tuple(cols["shares"][i]),
                decisions=cols["length"][i],
                seat_decisions=tuple(cols["seat_decisions"][i]),
            )
        )
    return list(deals.values())


# ------------------------------------------------------------------ the report
@dataclass
class Rate:
    """A win rate with its Wilson interval and a mean score with its interval."""

    label: str
    games: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float


@dataclass
class Rating:
    spec: str
    elo: float
    low: float
    high: float


@dataclass
class SprtResult:
    """The sequential test of agent A against agent B."""

    a: str
    b: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    llr: float
    lower: float
    upper: float
    accepted: str | None
    """``"H1"`` (A is ``elo1`` stronger), ``"H0"`` (at most ``elo0``), or None (undecided)."""
    deals: int
    score: float
    """A's mean score against B over the deals used (0.5 is equal strength)."""

    def verdict(self) -> str:
        if self.accepted == "H1":
            return f"H1 accepted: {self.a} is stronger than {self.b} by at least {self.elo1:g} Elo"
        if self.accepted == "H0":
            return f"H0 accepted: {self.a} is not stronger than {self.b} by more than {self.elo0:g} Elo"
        return "no decision within the games allowed"


@dataclass
class ArenaReport:
    game: str
    version: int
    players: int
    options: dict[str, Any]
    seed: int
    agents: list[str]
    unfair: list[str]
    lineups: list[list[str]]
    deals_planned: int
    deals: int
    games: int
    per_agent: list[Rate]
    per_seat: list[Rate]
    per_agent_seat: dict[str, list[Rate]]
    """Each agent's rate in each seat (labelled ``p1``, ``p2``…, every seat listed, a seat
    it never held with 0 games): a target per seat, such as "twice the fair share from
    every seat", needs the agent's rate there, which neither table above gives."""
    mean_length: tuple[float, float, float]
    ratings: list[Rating] | None
    sprt: SprtResult | None
    seconds_per_decision: dict[str, float]
    """Wall time per decision by agent: varies from run to run, unlike everything else."""
    results: list[GameResult] | None = field(default=None, repr=False)
    """Every game, in deal order: only when the arena ran with ``keep_results``."""

    @property
    def stopped_early(self) -> bool:
        return self.deals < self.deals_planned

    def to_dict(self, include_games: bool = False) -> dict[str, Any]:
        """A JSON-ready summary (``include_games`` adds every game's seating and scores)."""
        out: dict[str, Any] = {
            "game": self.game,
            "version": self.version,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "agents": self.agents,
            "unfair": self.unfair,
            "lineups": self.lineups,
            "deals_planned": self.deals_planned,
            "deals": self.deals,
            "games": self.games,
            "stopped_early": self.stopped_early,
            "per_agent": [asdict(r) for r in self.per_agent],
            "per_seat": [asdict(r) for r in self.per_seat],
            "per_agent_seat": {
                spec: [asdict(r) for r in rates] for spec, rates in self.per_agent_seat.items()
            },
            "mean_length": dict(zip(("mean", "low", "high"), self.mean_length, strict=True)),
            "ratings": None if self.ratings is None else [asdict(r) for r in self.ratings],
            "sprt": None
            if self.sprt is None
            else {**asdict(self.sprt), "verdict": self.sprt.verdict()},
            "seconds_per_decision": self.seconds_per_decision,
        }
        if include_games:
            if self.results is None:
                raise ArenaError("this arena kept no games: run it with keep_results=True")
            out["results"] = [
                {
                    "deal": r.deal,
                    "rotation": r.rotation,
                    "seats": [self.agents[a] for a in r.lineup],
                    "scores": list(r.scores),
                    "shares": list(r.shares),
                    "decisions": r.decisions,
                }
                for r in self.results
            ]
        cleaned: dict[str, Any] = _finite(out)
        return cleaned

    def to_json(self, include_games: bool = False, indent: int | None = 2) -> str:
        import json

        return json.dumps(self.to_dict(include_games), indent=indent)


def _finite(obj: Any) -> Any:
    """JSON has no NaN or infinity: write them as null."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_finite(v) for v in obj]
    return obj


# ------------------------------------------------------------ pairwise results
def deal_pairs(
    results: Sequence[GameResult], lower_is_better: bool
) -> Iterator[tuple[int, int, float]]:
    """Pairwise results ``(agent i, agent j, i's score 1/½/0)`` between different agents.

    Within each game every pair of seats held by different agents is compared
    by final score. In a solo game, where no game has two agents, the games of
    the same deal are compared instead: the same cards, played by each.
    """
    sign = -1.0 if lower_is_better else 1.0

    def outcome(x: float, y: float) -> float:
        d = sign * (x - y)
        return 1.0 if d > 0 else 0.0 if d < 0 else 0.5

    for game in results:
        seats = len(game.lineup)
        for s in range(seats):
            for t in range(s + 1, seats):
                i, j = game.lineup[s], game.lineup[t]
                if i != j:
                    yield i, j, outcome(game.scores[s], game.scores[t])
    if results and len(results[0].lineup) == 1:
        for gi, g in enumerate(results):
            for h in results[gi + 1 :]:
                i, j = g.lineup[0], h.lineup[0]
                if i != j:
                    yield i, j, outcome(g.scores[0], h.scores[0])


def pair_matrix(
    deals: Sequence[Sequence[GameResult]], agents: int, lower_is_better: bool
) -> list[list[float]]:
    wins = [[0.0] * agents for _ in range(agents)]
    for results in deals:
        for i, j, x in deal_pairs(results, lower_is_better):
            wins[i][j] += x
            wins[j][i] += 1.0 - x
    return wins


def deal_score(
    results: Sequence[GameResult], a: int, b: int, lower_is_better: bool
) -> float | None:
    """Agent ``a``'s mean pairwise score against ``b`` over one deal (None if they never met)."""
    total = 0.0
    count = 0
    for i, j, x in deal_pairs(results, lower_is_better):
        if (i, j) == (a, b):
            total += x
            count += 1
        elif (i, j) == (b, a):
            total += 1.0 - x
            count += 1
    return total / count if count else None


class Totals:
    """What the report needs of every game played, kept as running aggregates.

    Memory is flat in the number of games: win shares, scores and lengths go
    into :class:`decklab.lab.stats.Tally` counts, and a deal enters the ratings
    through its pattern (its Plackett–Luce statistics, or in a solo game its
    matrix of pairwise results), counted; the patterns a game can produce are
    bounded by its combinatorics, not by how many deals were played.
    """

    def __init__(self, agents: Sequence[str], seats: int, lower_is_better: bool) -> None:
        self.agents = list(agents)
        self.seats = seats
        self.lower_is_better = lower_is_better
        k = len(self.agents)
        self.agent_shares = [stats.Tally() for _ in range(k)]
        self.agent_scores = [stats.Tally() for _ in range(k)]
        self.seat_shares = [stats.Tally() for _ in range(seats)]
        self.seat_scores = [stats.Tally() for _ in range(seats)]
        self.agent_seat_shares = [[stats.Tally() for _ in range(seats)] for _ in range(k)]
        self.agent_seat_scores = [[stats.Tally() for _ in range(seats)] for _ in range(k)]
        self.length = stats.Tally()
        self.deals = 0
        self.games = 0
        self.patterns: dict[Any, int] = {}
        """Deal pattern → how many deals had it (in order of first appearance)."""

    def add(self, results: Sequence[GameResult]) -> None:
        """Count one deal's games."""
        self.deals += 1
        self.games += len(results)
        for r in results:
            for seat, a in enumerate(r.lineup):
                share, score = r.shares[seat], r.scores[seat]
                self.agent_shares[a].add(share)
                self.agent_scores[a].add(score)
                self.seat_shares[seat].add(share)
                self.seat_scores[seat].add(score)
                self.agent_seat_shares[a][seat].add(share)
                self.agent_seat_scores[a][seat].add(score)
            self.length.add(float(r.decisions))
        if len(self.agents) >= 2 and results:
            key = self._pattern(results)
            self.patterns[key] = self.patterns.get(key, 0) + 1

    def agent_seat_rates(self) -> dict[str, list[Rate]]:
        """Each agent's win share and score in each seat (``p1``…), every seat listed."""
        return {
            spec: [
                _rate(seat_name(s), self.agent_seat_shares[i][s], self.agent_seat_scores[i][s])
                for s in range(self.seats)
            ]
            for i, spec in enumerate(self.agents)
        }

    def _pattern(self, results: Sequence[GameResult]) -> Any:
        if self.seats == 1:
            matrix = pair_matrix([results], len(self.agents), self.lower_is_better)
            return tuple(tuple(row) for row in matrix)
        from decklab.lab import metrics

        rows = metrics.Rows(
            players=self.seats,
            agents=self.agents,
            lineup=[list(g.lineup) for g in results],
            scores=[list(g.scores) for g in results],
            shares=[list(g.shares) for g in results],
            length=[g.decisions for g in results],
            lower_is_better=self.lower_is_better,
        )
        return metrics.luce_pattern(rows, depth=1)

    def ratings(self, seed: int, samples: int = BOOTSTRAP_SAMPLES) -> list[Rating]:
        """Ratings per agent on the Elo scale, with 95% percentile intervals from a bootstrap over deals.

        At a table of two or more seats: the Plackett–Luce model of *who wins*
        (:func:`decklab.lab.metrics.pattern_ratings`), so that the ratings order
        agents as their win rates do. A pairwise model of the whole finishing
        order can disagree with the win rates in a game like Corporation, where
        a strong player wins more often but also finishes last more often (see
        docs/metrics.md). Solo games, where nobody shares a table, compare the
        agents' scores on the same deal instead: Bradley–Terry on those pairs.
        The bootstrap draws how many times each deal pattern is resampled from
        a multinomial: the distribution of resampling deals one by one.
        """
        enough = self.deals >= MIN_BOOTSTRAP_DEALS  # resampling a handful of deals says nothing
        if self.seats > 1:
            from decklab.lab import metrics

            fitted = metrics.pattern_ratings(
                self.agents, self.patterns, samples=samples if enough else 0, seed=seed
            )
            return [Rating(r["agent"], r["elo"], r["low"], r["high"]) for r in fitted]
        import numpy as np

        k = len(self.agents)
        matrices = list(self.patterns)
        counts = list(self.patterns.values())

        def fit(weights: Sequence[int]) -> list[float]:
            wins = [[0.0] * k for _ in range(k)]
            for m, c in zip(matrices, weights, strict=True):
                if not c:
                    continue
                for i in range(k):
                    row = wins[i]
                    for j in range(k):
                        row[j] += c * m[i][j]
            return stats.bradley_terry(wins)

        point = fit(counts)
        if not enough:
            return [
                Rating(spec, point[i], math.nan, math.nan) for i, spec in enumerate(self.agents)
            ]
        rng = np.random.default_rng(derive_seed(seed, 0xB007))
        share = np.array(counts, dtype=float) / self.deals
        draws = [fit(rng.multinomial(self.deals, share).tolist()) for _ in range(samples)]
        out = []
        for i, spec in enumerate(self.agents):
            column = sorted(d[i] for d in draws)
            low = column[int(0.025 * (samples - 1))]
            high = column[math.ceil(0.975 * (samples - 1))]
            out.append(Rating(spec, point[i], low, high))
        return out


def _rate(label: str, shares: stats.Tally, scores: stats.Tally) -> Rate:
    wins = shares.total()
    n = shares.n
    low, high = stats.wilson(wins, n)
    mean, s_low, s_high = stats.tally_mean_interval(scores)
    return Rate(label, n, wins, wins / n if n else math.nan, low, high, mean, s_low, s_high)


# ------------------------------------------------------------------- running
def run_arena(
    game: str,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    sprt: tuple[float, float] | None = None,
    progress: bool = True,
    players: int | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    ray: str | None = None,
    keep_results: bool = False,
    title: str | None = None,
    out: Path | None = None,
) -> ArenaReport:
    """Play at least ``games`` games (whole deals: every deal in every rotation) and report.

    ``specs`` lists one agent spec per seat, or fewer, cycled over the seats;
    ``players`` fixes the table size (default: one seat per spec when the game
    allows that many, else the game's default). ``sprt=(elo0, elo1)`` tests the
    first two different specs against each other and stops when it decides.
    ``ray`` runs the batches on Ray instead of local processes (a cluster's
    address, or ``"local"`` to start one here with ``workers`` CPUs): the same
    runner, so the same seed gives the same report. The report is built from
    running aggregates (:class:`Totals`), so memory stays flat however many
    games are played; ``keep_results`` also keeps every game's result (about
    1 KB each) in :attr:`ArenaReport.results`, for small runs that list them.
    ``title`` replaces the progress bar's description (the game and the agents).
    ``out`` keeps every finished batch in that folder (the runner's part files), and a
    run given a folder that holds part of the same plan plays only the rest: an
    interrupted study resumes, and reports what an uninterrupted one would.
    """
    if workers < 1:
        raise ArenaError(f"workers must be at least 1, not {workers}")
    if ray is not None and not ray.strip():
        raise ArenaError("--ray takes a cluster address, or 'local' to start one here")
    plan = make_plan(game, specs, games, seed=seed, options=options, players=players, trace=False)
    info = get_game(plan.game).info
    n = plan.players
    resolved = info.resolve_options(n, plan.options)
    agents = list(plan.agents)
    lineups = list(plan.lineups)
    if sprt is not None:
        if len(agents) < 2:
            raise ArenaError("the SPRT compares two different agents: name at least two specs")
        if not sprt[0] < sprt[1]:
            raise ArenaError(f"the SPRT needs elo0 < elo1, not {sprt[0]:g} and {sprt[1]:g}")
    deals_planned = plan.deals

    totals = Totals(agents, n, info.lower_is_better)
    kept: list[GameResult] | None = [] if keep_results else None
    sprt_counts: dict[float, float] = {}
    """Each per-deal SPRT score, rounded as :func:`stats.sprt_llr` rounds it → how often."""
    sprt_tally = stats.Tally()
    decided: list[SprtResult | None] = [None]
    lower, upper = stats.sprt_bounds(alpha, beta)
    think = [0.0] * len(agents)
    moves = [0] * len(agents)

    def sprt_state(accepted: str | None) -> SprtResult:
        assert sprt is not None
        llr = stats.sprt_llr_counts(sprt_counts, sprt_tally.n, sprt[0], sprt[1])
        mean = sprt_tally.total() / sprt_tally.n if sprt_tally.n else math.nan
        return SprtResult(
            agents[0], agents[1], sprt[0], sprt[1], alpha, beta, llr, lower, upper,
            accepted, totals.deals, mean,
        )  # fmt: skip

    bar = _Progress(progress, plan.games, title or f"{info.title}: {' vs '.join(agents)}")

    def consume(results: list[GameResult]) -> bool:
        totals.add(results)
        if kept is not None:
            kept.extend(results)
        bar.advance(len(results))
        if sprt is None:
            return False
        x = deal_score(results, 0, 1, info.lower_is_better)
        if x is not None:
            key = round(x, 9)
            sprt_counts[key] = sprt_counts.get(key, 0.0) + 1.0
            sprt_tally.add(x)
        llr = stats.sprt_llr_counts(sprt_counts, sprt_tally.n, sprt[0], sprt[1])
        if sprt_tally.n >= SPRT_MIN_DEALS and (llr >= upper or llr <= lower):
            decided[0] = sprt_state("H1" if llr >= upper else "H0")
            return True
        return False

    with bar:
        backend = Backend(workers=workers, ray=ray)
        batches = (
            run_batches(plan, range(plan.batches), backend)
            if out is None
            else resume_batches(plan, out, backend)
        )
        try:
            for batch in batches:
                for a in range(len(agents)):
                    think[a] += batch.think[a]
                    moves[a] += batch.decisions[a]
                if any(consume(results) for results in batch_results(batch)):
                    break
        finally:
            batches.close()

    ratings = totals.ratings(seed) if len(agents) >= 2 else None
    sprt_result = decided[0]
    if sprt is not None and sprt_result is None:
        sprt_result = sprt_state(None)
    return ArenaReport(
        game=info.name,
        version=info.version,
        players=n,
        options=resolved,
        seed=seed,
        agents=agents,
        unfair=[a for a in agents if not is_fair(a)],
        lineups=[[agents[a] for a in lineup] for lineup in lineups],
        deals_planned=deals_planned,
        deals=totals.deals,
        games=totals.games,
        per_agent=[
            _rate(spec, totals.agent_shares[i], totals.agent_scores[i])
            for i, spec in enumerate(agents)
        ],
        per_seat=[
            _rate(seat_name(s), totals.seat_shares[s], totals.seat_scores[s]) for s in range(n)
        ],
        per_agent_seat=totals.agent_seat_rates(),
        mean_length=stats.tally_mean_interval(totals.length),
        ratings=ratings,
        sprt=sprt_result,
        seconds_per_decision={
            spec: think[i] / moves[i] if moves[i] else 0.0 for i, spec in enumerate(agents)
        },
        results=kept,
    )


class _Progress:
    """A rich progress bar on stderr (so ``--json`` output stays clean), or nothing."""

    def __init__(self, enabled: bool, total: int, title: str) -> None:
        self.enabled = enabled
        self.total = total
        self.title = title
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from decklab.lab.progress import progress_bar

            self._progress = progress_bar()
        if self._progress is not None:
            self._progress.__enter__()
            self._task = self._progress.add_task(self.title, total=self.total)
        return self

    def advance(self, games: int) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, games)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(None, None, None)
