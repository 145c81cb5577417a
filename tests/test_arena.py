"""The arena: intervals, duplicate deals, reproducibility across workers, SPRT, ratings, commands."""

from __future__ import annotations

import json
import math
import random

import pytest
import typer
from typer.testing import CliRunner

from decklab.bots.spec import split_players
from decklab.engine.errors import DecklabError
from decklab.lab import stats
from decklab.lab.arena import (
    ArenaReport,
    DealJob,
    agent_seed_spec,
    derive_seed,
    play_deal,
    run_arena,
    seat_lineups,
)
from decklab.lab.commands import parse_sprt, register

QUICK = {"target": 12}
LOOK = "greedy:mode=lookahead"
"""The generic greedy: a fixed, clearly-better-than-random opponent that no game's code changes."""


# ------------------------------------------------------------------ statistics
@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Reference values: Wilson (1927) score interval without continuity correction,
        # as given by R's binom::binom.wilson / statsmodels proportion_confint(method="wilson").
        (5, 10, 0.236593, 0.763407),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (50, 100, 0.403832, 0.596168),
        (1, 20, 0.008881, 0.236131),
    ],
)
def test_wilson_interval_matches_known_values(k: int, n: int, low: float, high: float) -> None:
    got = stats.wilson(k, n)
    assert got[0] == pytest.approx(low, abs=1e-5)
    assert got[1] == pytest.approx(high, abs=1e-5)


def test_mean_interval() -> None:
    mean, low, high = stats.mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    half = stats.Z95 * math.sqrt((5 / 3) / 4)
    assert (low, high) == pytest.approx((2.5 - half, 2.5 + half))
    assert stats.mean_interval([7.0]) == (7.0, 7.0, 7.0)


def test_bradley_terry_recovers_strengths_from_synthetic_games() -> None:
    true_elo = [0.0, 150.0, 400.0]
    rng = random.Random(1)
    wins = [[0.0] * 3 for _ in range(3)]
    for _ in range(3000):
        i, j = rng.sample(range(3), 2)
        p = stats.elo_to_score(true_elo[i] - true_elo[j])
        if rng.random() < p:
            wins[i][j] += 1
        else:
            wins[j][i] += 1
    elo = stats.bradley_terry(wins)
    assert sum(elo) == pytest.approx(0.0, abs=1e-6)
    assert elo[0] < elo[1] < elo[2]
    for got, want in zip(elo, [e - sum(true_elo) / 3 for e in true_elo], strict=True):
        assert got == pytest.approx(want, abs=40)


def test_bradley_terry_keeps_an_unbeaten_agent_finite() -> None:
    elo = stats.bradley_terry([[0, 10], [0, 0]])
    assert math.isfinite(elo[0]) and elo[0] > 200 and elo[1] == -elo[0]


def test_sprt_llr_moves_the_right_way() -> None:
    assert stats.sprt_llr([], 0, 35) == 0.0
    wins = [stats.sprt_llr([1.0] * n, 0, 35) for n in (5, 10, 20)]
    assert 0 < wins[0] < wins[1] < wins[2]
    assert stats.sprt_llr([0.5] * 40, 0, 35) < 0
    assert stats.sprt_llr([0.0, 0.25, 0.5] * 10, 0, 35) < stats.sprt_bounds()[0]
    low, high = stats.sprt_bounds(0.05, 0.05)
    assert high == pytest.approx(math.log(19)) and low == pytest.approx(-math.log(19))


def test_sprt_llr_matches_the_pentanomial_normal_approximation() -> None:
    # Near equal strength the GSPRT LLR agrees with the classical approximation
    # n (s1 - s0) (2 x̄ - s0 - s1) / (2 σ²) used by cutechess and early fishtest.
    for seed in range(3):
        rng = random.Random(seed)
        outcomes = [0.0, 0.25, 0.25, 0.5, 0.5, 0.5, 0.75, 0.75, 1.0]
        scores = [rng.choice(outcomes) for _ in range(1000)]
        n = len(scores)
        mean = sum(scores) / n
        var = sum((x - mean) ** 2 for x in scores) / n
        s0, s1 = stats.elo_to_score(0), stats.elo_to_score(5)
        approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
        assert stats.sprt_llr(scores, 0, 5) == pytest.approx(approx, rel=0.01, abs=0.01)


# ------------------------------------------------------------------ seating
def test_seat_rotations() -> None:
    assert seat_lineups([0, 1], 4) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert seat_lineups([0, 1], 2) == [(0, 1), (1, 0)]
    assert seat_lineups([0, 1, 2], 3) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    five = seat_lineups([0, 1], 5)
    assert len(five) == 5
    for seat in range(5):  # every agent sits in every seat
        assert {lineup[seat] for lineup in five} == {0, 1}
    assert seat_lineups([0, 1, 2], 1) == [(0,), (1,), (2,)]  # a solo game: each plays the deal
    assert seat_lineups([0, 1, 2], 2) == [(0, 1), (1, 2), (2, 0)]


def test_duplicate_deals_play_every_rotation_of_the_same_deal() -> None:
    report = run_arena(
        "corporation",
        [LOOK, "random"],
        8,
        seed=4,
        options=QUICK,
        players=4,
        progress=False,
        keep_results=True,
    )
    assert report.results is not None
    assert report.lineups == [
        [LOOK, "random", LOOK, "random"],
        ["random", LOOK, "random", LOOK],
    ]
    assert report.deals == 4 and report.games == 8
    by_deal: dict[int, list[tuple[int, ...]]] = {}
    for r in report.results:
        by_deal.setdefault(r.deal, []).append(r.lineup)
    assert all(lineups == [(0, 1, 0, 1), (1, 0, 1, 0)] for lineups in by_deal.values())
    # Every rotation is dealt from the same seed: the same cards and chance.
    job = DealJob("corporation", 4, QUICK, ("random",), ((0, 0, 0, 0),), 0, derive_seed(4, 0))
    assert [r.scores for r in play_deal(job)] == [r.scores for r in play_deal(job)]


def test_each_seat_gets_its_own_agent_seed() -> None:
    a = agent_seed_spec("ismcts:iters=5", 99, 0, 1)
    b = agent_seed_spec("ismcts:iters=5", 99, 0, 2)
    assert a != b and a.startswith("ismcts:iters=5,seed=")
    assert agent_seed_spec("random:seed=3", 99, 0, 1) != agent_seed_spec("random", 99, 0, 1)


def _without_timing(report: ArenaReport) -> dict[str, object]:
    data = report.to_dict(include_games=True)
    data.pop("seconds_per_decision")
    return data


def test_same_seed_same_report_whatever_the_workers() -> None:
    args = dict(options=QUICK, players=4, progress=False, seed=7, keep_results=True)
    specs = ["ismcts:iters=10", "random"]
    one = run_arena("corporation", specs, 6, workers=1, **args)  # type: ignore[arg-type]
    two = run_arena("corporation", specs, 6, workers=2, **args)  # type: ignore[arg-type]
    assert _without_timing(one) == _without_timing(two)
    other = run_arena("corporation", specs, 6, workers=1, **{**args, "seed": 8})  # type: ignore[arg-type]
    assert _without_timing(other) != _without_timing(one)


def test_sprt_stops_early_on_a_lopsided_match() -> None:
    report = run_arena(
        "corporation",
        [LOOK, "random"],
        400,
        seed=1,
        options=QUICK,
        players=4,
        sprt=(0, 150),
        progress=False,
    )
    assert report.sprt is not None
    assert report.sprt.accepted == "H1"
    assert report.sprt.llr >= report.sprt.upper
    assert report.stopped_early and report.deals < 40
    assert "H1 accepted" in report.sprt.verdict()
    assert report.to_dict()["sprt"]["accepted"] == "H1"


def test_sprt_accepts_h0_between_equals() -> None:
    report = run_arena(
        "corporation",
        ["random:seed=1", "random:seed=2"],
        2000,
        seed=3,
        options=QUICK,
        players=4,
        sprt=(0, 200),
        progress=False,
    )
    assert report.sprt is not None and report.sprt.accepted == "H0"
    assert report.sprt.llr <= report.sprt.lower and report.stopped_early


def test_sprt_works_with_several_workers() -> None:
    args = dict(
        options=QUICK, players=4, sprt=(0.0, 150.0), progress=False, seed=1, keep_results=True
    )
    one = run_arena("corporation", [LOOK, "random"], 400, workers=1, **args)  # type: ignore[arg-type]
    two = run_arena("corporation", [LOOK, "random"], 400, workers=2, **args)  # type: ignore[arg-type]
    assert _without_timing(one) == _without_timing(two)


def test_ratings_order_three_agents_of_different_strength() -> None:
    report = run_arena(
        "corporation",
        ["random", LOOK, "cheat:iters=60"],
        36,
        seed=5,
        options=QUICK,
        players=4,
        progress=False,
    )
    assert report.ratings is not None and len(report.ratings) == 3
    assert report.unfair == ["cheat:iters=60"]
    elo = {r.spec: r for r in report.ratings}
    assert elo["random"].elo < elo[LOOK].elo
    assert elo["random"].elo < elo["cheat:iters=60"].elo
    assert elo["random"].high < elo[LOOK].low  # clearly apart, intervals included
    for r in report.ratings:
        assert r.low <= r.elo <= r.high


def test_report_json_and_table() -> None:
    from rich.console import Console

    from decklab.lab.render import render_report

    report = run_arena("corporation", [LOOK, "random"], 4, seed=1, options=QUICK, players=4)
    data = json.loads(report.to_json())
    assert data["agents"] == [LOOK, "random"] and data["games"] == 4
    assert {r["label"] for r in data["per_seat"]} == {"p1", "p2", "p3", "p4"}
    assert 0 <= data["per_agent"][0]["win_low"] <= data["per_agent"][0]["win_rate"]
    console = Console(record=True, width=160)
    console.print(render_report(report))
    text = console.export_text()
    for word in ("By agent", "By seat", "Plackett–Luce", LOOK, "95% interval", "too few deals"):
        assert word in text
    assert data["ratings"][0]["low"] is None  # two deals: no bootstrap interval


def test_a_solo_report_leads_with_the_score_and_names_wins_perfect_games() -> None:
    """A patience game has no opponents: win rates for equals and a per-seat table
    (one seat) say nothing, and the score is what a player aims at."""
    from rich.console import Console

    from decklab.engine.registry import game_names, get_game
    from decklab.lab.render import render_report

    solo = next(g for g in game_names() if get_game(g).info.max_players == 1)
    report = run_arena(solo, ["greedy", "random"], 2, seed=1, progress=False)
    console = Console(record=True, width=200)
    console.print(render_report(report, get_game(solo).info.score_unit))
    text = console.export_text()
    assert "By seat" not in text and "win rate" not in text and "for equals" not in text
    header = next(line for line in text.splitlines() if "games" in line and "agent" in line)
    assert header.index("mean") < header.index("perfect games")


def test_arena_rejects_bad_input_clearly() -> None:
    with pytest.raises(DecklabError, match="no agent named"):
        run_arena("corporation", ["nosuch"], 2, progress=False)
    with pytest.raises(DecklabError, match="no option"):
        run_arena("corporation", ["random"], 2, options={"colour": "red"}, progress=False)
    with pytest.raises(DecklabError, match="no game"):
        run_arena("chess", ["random"], 2, progress=False)
    with pytest.raises(DecklabError, match="two different agents"):
        run_arena("corporation", ["random"], 2, sprt=(0, 10), progress=False)
    with pytest.raises(DecklabError, match="4–10 players"):
        run_arena("corporation", ["random"], 2, players=3, progress=False)


def test_specs_default_the_table_size() -> None:
    r = run_arena("corporation", ["random"] * 6, 1, progress=False)
    assert r.players == 6 and r.lineups == [["random"] * 6]
    r = run_arena("corporation", ["random", LOOK], 1, options=QUICK, progress=False)
    assert r.players == 5  # two specs are too few for Corporation: its default table, cycled


# ------------------------------------------------------------------ commands
def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """decklab (test)"""

    register(app)
    return app


runner = CliRunner()


def test_bots_command_lists_agents_and_cheat_apart() -> None:
    result = runner.invoke(_app(), ["bots"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.output
    for name in (
        "random",
        "greedy",
        "mode=auto|lookahead",
        "ismcts",
        "pimc",
        "cheat",
        "iters=N",
        "dets=N",
    ):
        assert name in out
    assert out.index("analysis only") < out.index("cheat")


def test_arena_command_json() -> None:
    result = runner.invoke(
        _app(),
        [
            "arena",
            "corporation",
            "--players",
            "greedy,random",
            "--games",
            "4",
            "--seats",
            "4",
            "--option",
            "target=12",
            "--json",
            "--sprt",
            "elo0=0,elo1=35",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 4 and data["sprt"]["elo1"] == 35
    # The keys scripts read stay as they were; the per-agent-per-seat table is one more.
    assert list(data) == [
        "game", "version", "players", "options", "seed", "agents", "unfair", "lineups",
        "deals_planned", "deals", "games", "stopped_early", "per_agent", "per_seat",
        "per_agent_seat", "mean_length", "ratings", "sprt", "seconds_per_decision",
    ]  # fmt: skip
    rate_keys = list(data["per_agent"][0])
    assert list(data["per_seat"][0]) == rate_keys == [
        "label", "games", "wins", "win_rate", "win_low", "win_high",
        "mean_score", "score_low", "score_high",
    ]  # fmt: skip
    assert list(data["per_agent_seat"]) == ["greedy", "random"]
    assert all(list(r) == rate_keys for r in data["per_agent_seat"]["greedy"])


def test_arena_command_table() -> None:
    result = runner.invoke(
        _app(),
        [
            *("arena", "corporation", "-p", "ismcts:iters=5,c=0.5,random"),
            *("-g", "2", "-n", "4", "-o", "target=6", "--no-progress"),
        ],
        env={"COLUMNS": "160"},
    )
    assert result.exit_code == 0, result.output
    assert "ismcts:iters=5,c=0.5" in result.output and "By seat" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-p", "nosuch"], "no agent named"),
        (["-p", "ismcts:iters=x"], "whole number"),
        (["-p", "random", "-o", "target=abc"], "whole number"),
        (["-p", "random", "-o", "nokey"], "key=value"),
        (["-p", "random,greedy", "--sprt", "fast"], "elo0=0,elo1=35"),
        (["-p", "random", "--games", "0"], "at least 1"),
    ],
)
def test_arena_command_exits_2_on_bad_input(args: list[str], message: str) -> None:
    result = runner.invoke(_app(), ["arena", "corporation", *args, "--no-progress"])
    assert result.exit_code == 2
    assert message in result.output


def test_spec_splitting_and_sprt_parsing() -> None:
    assert split_players("ismcts:iters=500,c=0.7,random") == ["ismcts:iters=500,c=0.7", "random"]
    assert split_players("random, greedy,pimc:dets=3,iters=50") == [
        "random",
        "greedy",
        "pimc:dets=3,iters=50",
    ]
    assert parse_sprt("elo0=0,elo1=35") == (0.0, 35.0)
    assert parse_sprt("-5,10") == (-5.0, 10.0)
    with pytest.raises(DecklabError):
        parse_sprt("elo0=0")
