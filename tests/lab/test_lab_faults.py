"""The lab's smaller faults (issue 23, item 6), each pinned by a test."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from decklab.engine.errors import DecklabError
from decklab.engine.registry import get_game
from decklab.lab.commands import register
from decklab.lab.progress import progress_bar


def _app() -> typer.Typer:
    app = typer.Typer()
    register(app)
    return app


def test_ctrl_c_exits_130_and_says_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("decklab.lab.simulate.run_to_folder", interrupt)
    out = tmp_path / "sim"
    args = ["simulate", "corporation", "-p", "random", "-n", "4", "-g", "8", "--out", str(out)]
    result = CliRunner().invoke(_app(), args)
    assert result.exit_code == 130
    assert "interrupted" in result.output and "again" in result.output
    assert "resume" in result.output and str(out) in result.output.replace("\n", "")


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    assert progress_bar(console=Console(file=io.StringIO())) is None
    wide = Console(file=io.StringIO(), force_terminal=True, width=160)
    narrow = Console(file=io.StringIO(), force_terminal=True, width=60)
    assert len(progress_bar(True, wide).columns) > len(progress_bar(True, narrow).columns)
    # a real run with its output in a file: one blank line per cell before the fix
    import decklab

    out = tmp_path / "sweep"
    args = ["sweep", "corporation", "-p", "random", "-n", "4", "-g", "32"]
    args += ["--vary", "target=10,14", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(Path(decklab.__file__).parents[1])}
    with (tmp_path / "log").open("w") as log:
        done = subprocess.run(
            [sys.executable, "-m", "decklab.cli", *args], stdout=log, stderr=log, env=env
        )
    text = (tmp_path / "log").read_text()
    assert done.returncode == 0, text
    assert not re.search(r"(^|\n)[ \t]*\n", text), text
    assert "ETA" not in text  # no bar drawn into a file


def test_stacks_help_says_the_range_that_is_accepted() -> None:
    option = get_game("cabin").info.option("stacks")
    assert f"{option.minimum} to {option.maximum}" in option.help
    for bad in (option.minimum - 1, option.maximum + 1):
        with pytest.raises(DecklabError):
            option.validate(option.parse(str(bad)), 1)
    for good in range(option.minimum, option.maximum + 1):
        option.validate(option.parse(str(good)), 1)
