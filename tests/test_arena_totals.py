"""The arena's running aggregates give the report that keeping every game gave.

The reference here is the arena's computation before it streamed: every
``GameResult`` kept, the figures computed from the full lists, the ratings
fitted on every game's row. It is recomputed from the games the arena keeps
on request (``keep_results``), which are the runner's per-game results.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from decklab.engine.registry import get_game
from decklab.engine.state import seat_name
from decklab.lab import metrics, stats
from decklab.lab.arena import (
    ArenaError,
    ArenaReport,
    GameResult,
    Totals,
    deal_score,
    pair_matrix,
    run_arena,
)

QUICK = {"target": 12}
ELO_TOL = 1e-6
"""Point ratings: the same fit of the same sums, taken in another order."""


# ------------------------------------------------------------------ the tally
@pytest.mark.parametrize("seed", range(3))
def test_tally_gives_exactly_what_the_full_list_gives(seed: int) -> None:
    rng = random.Random(seed)
    values = [rng.choice([0.0, 1 / 3, 0.5, 1.0, 7.0, -2.0, 1e-9]) for _ in range(2000)]
    tally = stats.Tally(values)
    assert tally.n == len(values) and len(tally.counts) <= 7
    assert tally.total() == math.fsum(values)
    assert stats.tally_mean_interval(tally) == stats.mean_interval(values)
    assert stats.tally_mean_interval(stats.Tally([3.0])) == (3.0, 3.0, 3.0)
    assert all(math.isnan(x) for x in stats.tally_mean_interval(stats.Tally()))


def test_tally_past_its_limit_folds_into_power_sums(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats.Tally, "LIMIT", 16)
    rng = random.Random(5)
    values = [rng.gauss(10.0, 3.0) for _ in range(3000)]
    tally = stats.Tally(values)
    assert tally.counts == {}  # folded: memory no longer grows with distinct values
    assert tally.total() == math.fsum(values)  # still exact
    got, want = stats.tally_mean_interval(tally), stats.mean_interval(values)
    assert got[0] == want[0]
    assert got[1:] == pytest.approx(want[1:], rel=1e-12)


def test_sprt_llr_from_counts_is_sprt_llr() -> None:
    rng = random.Random(2)
    scores = [rng.choice([0.0, 0.25, 0.5, 2 / 3, 1.0]) for _ in range(300)]
    counts: dict[float, float] = {}
    for x in scores:
        counts[round(x, 9)] = counts.get(round(x, 9), 0.0) + 1.0
    assert stats.sprt_llr_counts(counts, len(scores), 0, 35) == stats.sprt_llr(scores, 0, 35)


# ------------------------------------------------------- the old computation
def _old_rate(label: str, shares: list[float], scores: list[float]) -> tuple[object, ...]:
    wins = math.fsum(shares)
    n = len(shares)
    low, high = stats.wilson(wins, n)
    mean, s_low, s_high = stats.mean_interval(scores)
    return (label, n, wins, wins / n if n else math.nan, low, high, mean, s_low, s_high)


def _by_deal(games: Sequence[GameResult]) -> list[list[GameResult]]:
    deals: dict[int, list[GameResult]] = {}
    for g in games:
        deals.setdefault(g.deal, []).append(g)
    return list(deals.values())


def _old_point_ratings(report: ArenaReport, lower_is_better: bool) -> list[float]:
    assert report.results is not None
    games = report.results
    if report.players > 1:
        rows = metrics.Rows(
            players=report.players,
            agents=report.agents,
            lineup=[list(g.lineup) for g in games],
            scores=[list(g.scores) for g in games],
            shares=[list(g.shares) for g in games],
            length=[g.decisions for g in games],
            deal=[g.deal for g in games],
            lower_is_better=lower_is_better,
        )
        return [r["elo"] for r in metrics.ratings(rows, samples=0, seed=report.seed)]
    wins = pair_matrix(_by_deal(games), len(report.agents), lower_is_better)
    return stats.bradley_terry(wins)


def _assert_same_as_old(report: ArenaReport) -> None:
    assert report.results is not None
    games = report.results
    lower_is_better = get_game(report.game).info.lower_is_better
    k, n = len(report.agents), report.players
    agent_shares: list[list[float]] = [[] for _ in range(k)]
    agent_scores: list[list[float]] = [[] for _ in range(k)]
    seat_shares: list[list[float]] = [[] for _ in range(n)]
    seat_scores: list[list[float]] = [[] for _ in range(n)]
    for g in games:
        for seat, a in enumerate(g.lineup):
            agent_shares[a].append(g.shares[seat])
            agent_scores[a].append(g.scores[seat])
            seat_shares[seat].append(g.shares[seat])
            seat_scores[seat].append(g.scores[seat])
    assert report.games == len(games) and report.deals == len(_by_deal(games))
    assert [tuple(vars(r).values()) for r in report.per_agent] == [
        _old_rate(spec, agent_shares[i], agent_scores[i]) for i, spec in enumerate(report.agents)
    ]
    assert [tuple(vars(r).values()) for r in report.per_seat] == [
        _old_rate(seat_name(s), seat_shares[s], seat_scores[s]) for s in range(n)
    ]
    pairs: dict[tuple[int, int], tuple[list[float], list[float]]] = {}
    for g in games:
        for seat, a in enumerate(g.lineup):
            cell = pairs.setdefault((a, seat), ([], []))
            cell[0].append(g.shares[seat])
            cell[1].append(g.scores[seat])
    assert list(report.per_agent_seat) == report.agents
    for i, spec in enumerate(report.agents):
        got = [tuple(vars(r).values()) for r in report.per_agent_seat[spec]]
        want = [_old_rate(seat_name(s), *pairs.get((i, s), ([], []))) for s in range(n)]
        assert repr(got) == repr(want)  # repr: nan == nan for a seat never held
    assert report.mean_length == stats.mean_interval([float(g.decisions) for g in games])
    assert report.ratings is not None
    old = _old_point_ratings(report, lower_is_better)
    assert [r.elo for r in report.ratings] == pytest.approx(old, abs=ELO_TOL)
    for r in report.ratings:
        assert r.low <= r.elo + ELO_TOL and r.elo - ELO_TOL <= r.high
    if report.sprt is not None:
        scores = [deal_score(d, 0, 1, lower_is_better) for d in _by_deal(games)]
        used = [x for x in scores if x is not None]
        assert report.sprt.llr == stats.sprt_llr(used, report.sprt.elo0, report.sprt.elo1)
        assert report.sprt.score == math.fsum(used) / len(used)
        assert report.sprt.deals == report.deals


def test_streamed_report_is_the_old_report_at_a_four_seat_table() -> None:
    report = run_arena(
        "corporation",
        ["random:seed=1", "random"],
        48,
        seed=3,
        options=QUICK,
        players=4,
        progress=False,
        keep_results=True,
    )
    _assert_same_as_old(report)


def test_streamed_report_is_the_old_report_with_an_sprt() -> None:
    report = run_arena(
        "corporation",
        ["greedy:mode=lookahead", "random"],
        200,
        seed=1,
        options=QUICK,
        players=4,
        sprt=(0, 150),
        progress=False,
        keep_results=True,
    )
    assert report.sprt is not None and report.sprt.accepted is not None
    _assert_same_as_old(report)


def test_streamed_report_is_the_old_report_in_a_solo_game() -> None:
    report = run_arena(
        "cabin",
        ["random", "random:seed=4"],
        24,
        seed=2,
        players=1,
        progress=False,
        keep_results=True,
    )
    assert report.players == 1
    _assert_same_as_old(report)


def test_the_same_seed_gives_the_same_bootstrap_and_no_games_are_kept() -> None:
    args = dict(options=QUICK, players=4, progress=False)
    specs = ["random:seed=1", "random"]
    a = run_arena("corporation", specs, 40, seed=6, **args)  # type: ignore[arg-type]
    b = run_arena("corporation", specs, 40, seed=6, **args)  # type: ignore[arg-type]
    assert a.results is None
    assert a.ratings == b.ratings and a.ratings is not None
    assert all(math.isfinite(r.low) and r.low < r.high for r in a.ratings)
    with pytest.raises(ArenaError, match="keep_results"):
        a.to_dict(include_games=True)


def test_pattern_bootstrap_agrees_with_the_deal_bootstrap() -> None:
    """Both resample deals; only the random draws differ, so the intervals agree to noise."""
    report = run_arena(
        "corporation",
        ["greedy:mode=lookahead", "random"],
        160,
        seed=9,
        options=QUICK,
        players=4,
        progress=False,
        keep_results=True,
    )
    assert report.results is not None and report.ratings is not None
    games = report.results
    rows = metrics.Rows(
        players=4,
        agents=report.agents,
        lineup=[list(g.lineup) for g in games],
        scores=[list(g.scores) for g in games],
        shares=[list(g.shares) for g in games],
        length=[g.decisions for g in games],
        deal=[g.deal for g in games],
    )
    old = metrics.ratings(rows, samples=200, seed=report.seed)
    for new, ref in zip(report.ratings, old, strict=True):
        width = ref["high"] - ref["low"]
        assert abs(new.low - ref["low"]) < 0.25 * width
        assert abs(new.high - ref["high"]) < 0.25 * width


# ------------------------------------------------------------ per agent and seat
def test_per_agent_seat_counts_a_planted_table_exactly() -> None:
    """Two deals of a 3-seat game, ``a`` rotated through the seats against two ``b``s, with
    the outcomes planted: ``a`` wins both games in p1, wins one and shares one (½) in p2,
    and loses both in p3. Its rate per seat is then 2/2, 1.5/2 and 0/2; ``b``'s (two
    seats a game) 1.5/4, 1/4 and 0/4. An agent's overall rate (3.5/6) hides that p3."""
    lineups = [(0, 1, 1), (1, 0, 1), (1, 1, 0)]
    planted = [  # per deal, per rotation: (scores, shares)
        [((10, 5, 4), (1, 0, 0)), ((8, 8, 3), (0.5, 0.5, 0)), ((9, 4, 2), (1, 0, 0))],
        [((10, 5, 4), (1, 0, 0)), ((5, 9, 3), (0, 1, 0)), ((4, 9, 2), (0, 1, 0))],
    ]
    totals = Totals(["a", "b"], 3, lower_is_better=False)
    for deal, games in enumerate(planted):
        totals.add(
            [
                GameResult(
                    deal, r, lineups[r], tuple(map(float, sc)), tuple(map(float, sh)), 10, (4, 3, 3)
                )
                for r, (sc, sh) in enumerate(games)
            ]
        )
    rates = totals.agent_seat_rates()
    assert list(rates) == ["a", "b"]
    got = {spec: [(r.label, r.games, r.wins) for r in rows] for spec, rows in rates.items()}
    assert got == {
        "a": [("p1", 2, 2.0), ("p2", 2, 1.5), ("p3", 2, 0.0)],
        "b": [("p1", 4, 1.5), ("p2", 4, 1.0), ("p3", 4, 0.0)],
    }
    a_p2 = rates["a"][1]
    assert a_p2.win_rate == 0.75 and (a_p2.win_low, a_p2.win_high) == stats.wilson(1.5, 2)
    assert a_p2.mean_score == 8.5  # 8 and 9
    assert rates["a"][2].mean_score == 2.0 and rates["a"][2].win_high < 0.75
    assert [r.mean_score for r in rates["b"]] == [(8 + 9 + 5 + 4) / 4, (5 + 4 + 5 + 9) / 4, 3.5]


def test_one_agent_against_the_rest_gets_the_same_games_in_every_seat() -> None:
    """The arena rotates the lone agent through every seat on every deal: ``games = k·n``
    gives it exactly k games a seat (the per-seat table of docs/strength.md relies on it),
    and its per-seat games and wins add up to its overall ones."""
    report = run_arena(
        "corporation",
        ["greedy:mode=lookahead", "random", "random", "random"],
        12,
        seed=4,
        options=QUICK,
        players=4,
        progress=False,
    )
    data = report.to_dict()
    lone = data["per_agent_seat"]["greedy:mode=lookahead"]
    assert [r["label"] for r in lone] == ["p1", "p2", "p3", "p4"]
    assert [r["games"] for r in lone] == [3, 3, 3, 3]
    assert [r["games"] for r in data["per_agent_seat"]["random"]] == [9, 9, 9, 9]
    for spec, overall in zip(report.agents, data["per_agent"], strict=True):
        rows = data["per_agent_seat"][spec]
        assert sum(r["games"] for r in rows) == overall["games"]
        assert math.fsum(r["wins"] for r in rows) == pytest.approx(overall["wins"])
    for s, seat in enumerate(data["per_seat"]):
        assert math.fsum(rows[s]["wins"] for rows in data["per_agent_seat"].values()) == (
            pytest.approx(seat["wins"])
        )
