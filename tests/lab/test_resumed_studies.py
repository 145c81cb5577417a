"""``arena --out`` and ``fairness --out``: an interrupted study resumes, and reports what an
uninterrupted one would.

The promise breaks three ways, and each has its test: the resumed report differs (rows
read back wrong, batches out of order, a batch played twice), a folder of another study
is mixed in, or a killed run loses the games it had finished.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from decklab.cli import app
from decklab.engine.errors import DecklabError
from decklab.lab import runner
from decklab.lab.arena import run_arena
from decklab.lab.fairness import run_fairness
from decklab.lab.runner import BATCHES, finished_batches, logged_wall_seconds

TIMING = {"seconds_per_decision", "seconds"}


def _timeless(obj: Any) -> Any:
    """A report without its times (they vary from run to run, as nothing else does)."""
    if isinstance(obj, dict):
        return {k: _timeless(v) for k, v in obj.items() if k not in TIMING}
    if isinstance(obj, list):
        return [_timeless(v) for v in obj]
    return obj


class Killed(Exception):
    """Stands for the process dying (the session ends, the machine reboots)."""


def _die_after(monkeypatch: pytest.MonkeyPatch, batches: int) -> list[int]:
    """Let ``batches`` batches be played, then kill the run at the next; returns the
    indices played, so a test can check that nothing is played twice."""
    played: list[int] = []
    real = runner.play_batch

    def play(plan: runner.Plan, index: int) -> runner.Batch:
        if len(played) >= batches:
            raise Killed
        played.append(index)
        return real(plan, index)

    monkeypatch.setattr(runner, "play_batch", play)
    return played


def test_an_interrupted_arena_resumes_and_reports_what_a_whole_run_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args: dict[str, Any] = {"seed": 5, "progress": False, "players": 3}
    whole = run_arena("notorious", ["greedy", "random"], 48, **args)
    out = tmp_path / "arena"
    played = _die_after(monkeypatch, 3)
    with pytest.raises(Killed):
        run_arena("notorious", ["greedy", "random"], 48, out=out, **args)
    assert sorted(finished_batches(out)) == [0, 1, 2]
    monkeypatch.undo()
    played = _die_after(monkeypatch, 10_000)
    resumed = run_arena("notorious", ["greedy", "random"], 48, out=out, **args)
    assert 0 not in played and 1 not in played and 2 not in played  # kept, not replayed
    assert _timeless(json.loads(resumed.to_json())) == _timeless(json.loads(whole.to_json()))
    lines = (out / BATCHES).read_text().splitlines()
    assert len(lines) == len({json.loads(line)["index"] for line in lines})  # none twice
    # a finished folder plays nothing more and still reports the whole run
    played.clear()
    again = run_arena("notorious", ["greedy", "random"], 48, out=out, **args)
    assert played == []
    assert _timeless(json.loads(again.to_json())) == _timeless(json.loads(whole.to_json()))


def test_a_fairness_study_resumes_table_by_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args: dict[str, Any] = {"seed": 9, "progress": False, "players": [2, 3]}
    whole = run_fairness("lonely_face", "greedy", 32, **args)
    out = tmp_path / "fair"
    _die_after(monkeypatch, 20)  # the 2-player table whole, part of the 3-player one
    with pytest.raises(Killed):
        run_fairness("lonely_face", "greedy", 32, out=out, **args)
    first = finished_batches(out / "players-2")
    assert len(first) == 16 and 0 < len(finished_batches(out / "players-3")) < 16
    earlier = logged_wall_seconds(out / "players-2")
    assert earlier > 0
    monkeypatch.undo()
    resumed = run_fairness("lonely_face", "greedy", 32, out=out, **args)
    assert _timeless(json.loads(resumed.to_json())) == _timeless(json.loads(whole.to_json()))
    # the 2-player table was read back, and its time is that of the sitting that played it
    assert resumed.tables[0].seconds >= earlier


def test_a_folder_of_another_study_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "arena"
    run_arena("facade", ["greedy", "random"], 16, seed=1, progress=False, out=out)
    before = {p.name: p.stat().st_mtime_ns for p in out.rglob("*")}
    with pytest.raises(DecklabError, match="holds a different run"):
        run_arena("facade", ["greedy", "random"], 16, seed=2, progress=False, out=out)
    assert {p.name: p.stat().st_mtime_ns for p in out.rglob("*")} == before


def test_the_commands_take_out_and_resume(tmp_path: Path) -> None:
    cli = CliRunner()
    out = tmp_path / "f"
    argv = ["fairness", "facade", "-p", "random", "--players", "2", "-g", "16", "--json",
            "--no-progress", "--out", str(out)]  # fmt: skip
    first = cli.invoke(app, argv)
    assert first.exit_code == 0, first.output
    assert len(finished_batches(out / "players-2")) == 16
    second = cli.invoke(app, argv)
    assert second.exit_code == 0, second.output
    assert _timeless(json.loads(second.stdout)) == _timeless(json.loads(first.stdout))
    arena = tmp_path / "a"
    argv = ["arena", "facade", "-p", "greedy,random", "-g", "8", "--json", "--no-progress",
            "--out", str(arena)]  # fmt: skip
    assert cli.invoke(app, argv).exit_code == 0
    clash = cli.invoke(app, [*argv[:-3], "--seed", "4", "--out", str(arena)])
    assert clash.exit_code != 0 and "holds a different run" in clash.output


def test_ctrl_c_keeps_what_was_finished_and_says_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = runner.play_batch
    calls: list[int] = []

    def play(plan: runner.Plan, index: int) -> runner.Batch:
        if len(calls) == 4:
            raise KeyboardInterrupt
        calls.append(index)
        return real(plan, index)

    monkeypatch.setattr(runner, "play_batch", play)
    out = tmp_path / "f"
    argv = ["fairness", "facade", "-p", "random", "--players", "2", "-g", "16", "--json",
            "--no-progress", "--out", str(out)]  # fmt: skip
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 130
    assert "interrupted" in result.output and str(out) in result.output
    assert sorted(finished_batches(out / "players-2")) == [0, 1, 2, 3]
    calls.clear()
    result = CliRunner().invoke(app, ["arena", "facade", "-p", "greedy,random", "-g", "16",
                                      "--no-progress", "--out", str(tmp_path / "a")])  # fmt: skip
    assert result.exit_code == 130 and "run the same command again" in result.output
