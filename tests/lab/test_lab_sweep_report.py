"""Sweeps resume to the same result, tuning ranks and caches, reports are self-contained,
and the commands fail clearly on bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from decklab.engine.errors import DecklabError
from decklab.lab.commands import register
from decklab.lab.report import write_report
from decklab.lab.runner import read_table
from decklab.lab.sweep import grid, parse_vary, sweep
from decklab.lab.tune import Goal, parse_goals, parse_params, tune

SPECS = ["greedy", "random"]
VARY = {"players": ["4", "5"], "target": ["10", "14"]}


def _cells(out: Path) -> dict[str, list[dict[str, object]]]:
    return {c.folder: read_table(out / c.folder).to_pylist() for c in grid(VARY)}


def test_an_interrupted_sweep_resumes_to_the_same_result(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    done = sweep("corporation", SPECS, 10, VARY, whole, seed=2)
    assert len(done.cells) == 4 and done.skipped == 0
    cut = tmp_path / "cut"
    partial = sweep("corporation", SPECS, 10, VARY, cut, seed=2, stop_after=5)
    assert sum(s.games for _, s in partial.cells) < 40
    again = sweep("corporation", SPECS, 10, VARY, cut, seed=2)
    assert again.skipped >= 1  # the finished cells were skipped
    assert _cells(cut) == _cells(whole)
    assert {c.values["players"] for c, _ in again.cells} == {"4", "5"}
    rows = _cells(cut)["cell-players-5__target-14"]
    assert rows[0]["players"] == 5 and json.loads(str(rows[0]["options"]))["target"] == 14
    third = sweep("corporation", SPECS, 10, VARY, cut, seed=2)
    assert third.skipped == 4


def test_sweep_input_is_checked_before_anything_runs(tmp_path: Path) -> None:
    assert parse_vary(["players=2,3", "fifth_suit=false,true"]) == {
        "players": ["2", "3"],
        "fifth_suit": ["false", "true"],
    }
    for bad in (["players"], ["players="], ["a=1", "a=2"]):
        with pytest.raises(DecklabError):
            parse_vary(bad)
    out = tmp_path / "bad"
    with pytest.raises(DecklabError, match="cell players=3"):
        sweep("corporation", SPECS, 4, {"players": ["4", "3"]}, out)
    assert not out.exists()


def test_report_is_self_contained_html_with_numbers(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    sweep("corporation", SPECS, 10, {"target": ["10", "14"]}, out, players=4)
    html_path, json_path = write_report(out)
    page = html_path.read_text()
    assert page.startswith("<!DOCTYPE html>")
    sources = re.findall(r'src="([^"]*)"', page)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    text = re.sub(r'src="data:image/png;base64,[A-Za-z0-9+/=]*"', "", page)
    assert not re.search(r"(?i)(?:https?:|ftp:)?//[a-z0-9]", text)  # no URL of any kind
    assert not re.search(r"(?i)<(?:script|link|iframe|object|embed)\b|url\(", text)
    for word in ("target=10", "target=14", "Balance".lower(), "corporations formed"):
        assert word in page.lower()
    numbers = json.loads(json_path.read_text())
    assert set(numbers["variants"]) == {"target=10", "target=14"}
    assert numbers["variants"]["target=10"]["games"] == 10


def test_report_of_a_folder_with_nothing_fails_clearly(tmp_path: Path) -> None:
    with pytest.raises(DecklabError, match="no decklab"):
        write_report(tmp_path)


def test_goals_and_params_parse() -> None:
    assert parse_params(["target=20..200"], points=4) == {"target": ["20", "80", "140", "200"]}
    assert parse_params(["players=4,5"]) == {"players": ["4", "5"]}
    assert parse_params(["top_value=3..4"]) == {"top_value": ["3", "4"]}
    goals = parse_goals(["length=15..25", "balance=max"])
    assert goals == [Goal("length", "range", 15, 25), Goal("balance", "max")]
    g = goals[0]
    assert (g.score(20), g.score(15), g.score(10), g.score(5), g.score(30)) == (1, 1, 0.5, 0, 0.5)
    assert Goal("shared_wins", "min").score(0.25) == 0.75
    for bad in (["target"], ["target=5..1"]):
        with pytest.raises(DecklabError):
            parse_params(bad)
    with pytest.raises(DecklabError):
        parse_goals(["length=soon"])


def test_tune_ranks_candidates_and_resumes_from_its_cache(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    goals = parse_goals(["rounds=3..4"])
    params = {"target": ["8", "60"]}
    data = tune("corporation", ["greedy"], params, goals, out, games=6, rounds=2, players=4)
    ranked = data["ranked"]
    assert ranked[0]["params"]["target"] == "8"  # few rounds: the low target
    best = ranked[0]
    assert best["score_low"] <= best["score"] <= best["score_high"]
    assert best["games"] > ranked[1]["games"]  # the survivor got more games
    stamp = {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")}
    again = tune("corporation", ["greedy"], params, goals, out, games=6, rounds=2, players=4)
    assert again == data
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")} == stamp  # nothing replayed
    html_path, _ = write_report(out)
    assert "target=8" in html_path.read_text()
    with pytest.raises(DecklabError, match="no metric"):
        tune(
            "corporation",
            ["greedy"],
            params,
            parse_goals(["nosuch=max"]),
            tmp_path / "t2",
            games=2,
            rounds=1,
            players=4,
        )


# ------------------------------------------------------------------ commands
def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """decklab (test)"""

    register(app)
    return app


runner = CliRunner()


def test_simulate_and_report_commands(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    args = ["simulate", "corporation", "-p", "greedy,random", "-n", "4", "-g", "8"]
    result = runner.invoke(_app(), [*args, "-o", "target=10", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "8 games" in result.output and "greedy" in result.output
    again = runner.invoke(_app(), [*args, "-o", "target=10", "--out", str(out), "--no-progress"])
    assert "already done" in again.output
    result = runner.invoke(_app(), ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "report.html").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "chess", "-p", "random"],
        ["simulate", "corporation", "-p", "nosuch"],
        ["simulate", "corporation", "-p", "random", "-o", "target=x"],
        ["simulate", "corporation", "-p", "random", "--workers", "0"],
        ["simulate", "corporation", "-p", "random", "--workers", "2", "--ray", "local"],
        ["sweep", "corporation", "-p", "random", "--vary", "players"],
        ["tune", "corporation", "-p", "random", "--param", "target=9..1", "--goal", "balance=max"],
        [
            "tune",
            "corporation",
            "-p",
            "random",
            "--param",
            "target=9..10",
            "--goal",
            "balance=most",
        ],
    ],
)
def test_lab_commands_exit_2_on_bad_input(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "out"
    result = runner.invoke(_app(), [*args, "--out", str(out), "--no-progress"])
    assert result.exit_code == 2, result.output
    assert "error" in result.output
    assert not out.exists()


def test_report_command_on_an_empty_folder(tmp_path: Path) -> None:
    result = runner.invoke(_app(), ["report", str(tmp_path)])
    assert result.exit_code == 2 and "no decklab" in result.output


def test_skill_trace_pits_each_budget_against_its_half(tmp_path: Path) -> None:
    from decklab.lab.skill import rung_specs, skill_trace

    assert rung_specs("ismcts:c=0.7", "iters", 16) == (
        "ismcts:c=0.7,iters=16",
        "ismcts:c=0.7,iters=8",
    )
    out = tmp_path / "skill"
    data = skill_trace(
        "corporation", "ismcts", "iters", [4, 8], 4, out, players=4, options={"target": 8}
    )
    assert [r["budget"] for r in data["rungs"]] == [4, 8]
    for r in data["rungs"]:
        assert r["games"] == 4 and r["equal_share"] == 0.25
        assert r["strong"]["agent"].endswith(f"iters={r['budget']}")
        assert r["weak"]["agent"].endswith(f"iters={r['budget'] // 2}")
    html_path, _ = write_report(out)
    assert "Skill trace" in html_path.read_text() or "skill trace" in html_path.read_text()
    with pytest.raises(DecklabError, match="at least 2"):
        skill_trace("corporation", "ismcts", "iters", [1], 4, tmp_path / "s2", players=4)
