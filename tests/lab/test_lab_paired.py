"""Paired comparisons against hand-computed values on small synthetic results."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

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


def test_a_sweep_report_and_compare_give_paired_holm_corrected_differences(
    tmp_path: Path,
) -> None:
    from decklab.lab.compare import compare_folders
    from decklab.lab.report import write_report
    from decklab.lab.sweep import sweep

    out = tmp_path / "sweep"
    sweep("corporation", ["greedy", "random"], 24, {"target": ["10", "14"]}, out, players=4, seed=3)
    html_path, json_path = write_report(out)
    numbers = json.loads(json_path.read_text())
    rows = numbers["paired"]
    assert rows and {r["variant"] for r in rows} == {"target=14"}
    assert all(r["tests"] == len(rows) for r in rows)
    assert all(r["holm_p"] is None or r["holm_p"] >= (r["p"] or 0) for r in rows)
    # 6 deals (24 games, 4 rotations): never a finding, whatever the p-value
    assert {r["verdict"] for r in rows} == {paired.TOO_FEW}
    page = html_path.read_text()
    assert "Holm p" in page and "Paired differences against target=10" in page
    cell_a, cell_b = out / "cell-target-10", out / "cell-target-14"
    data = compare_folders(cell_a, cell_b)
    assert [r["difference"] for r in data["differences"]] == [r["difference"] for r in rows]
    result = CliRunner().invoke(_app(), ["compare", str(cell_a), str(cell_b)])
    assert result.exit_code == 0, result.output
    assert "Holm's correction across" in result.output
    as_json = CliRunner().invoke(_app(), ["compare", str(cell_a), str(cell_b), "--json"])
    assert json.loads(as_json.output)["differences"] == data["differences"]
    bad = CliRunner().invoke(_app(), ["compare", str(cell_a), str(tmp_path)])
    assert bad.exit_code == 2 and "no decklab simulation" in bad.output


def test_solo_report_leads_with_score_percentiles_and_perfect_games(tmp_path: Path) -> None:
    from decklab.lab.report import write_report
    from decklab.lab.sweep import sweep

    out = tmp_path / "cabin"
    sweep("cabin", ["greedy"], 8, {"stacks": ["7", "8"]}, out, seed=1)
    html_path, json_path = write_report(out)
    page = html_path.read_text()
    overview = page.split("<h2>Overview</h2>")[1].split("</table>")[0]
    assert "mean squid points" in overview and "perfect games" in overview
    assert "percentiles 10 / 25 / 50 / 75 / 90" in overview
    assert "balance" not in overview.lower() and "wins" not in overview
    assert "Win rate by seat" not in page
    paired_rows = json.loads(json_path.read_text())["paired"]
    assert {"score", "perfect games"} <= {r["metric"] for r in paired_rows}


def _app() -> typer.Typer:
    from decklab.lab.commands import register

    app = typer.Typer()
    register(app)
    return app
