"""docs/interop.md stays true: its encoding sections are printed from the hooks, and the
worked example runs."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium", reason="Gymnasium is part of decklab[rl]")

DOCS = Path(__file__).parent.parent.parent / "docs"


def test_interop_md_is_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location("build_interop", DOCS / "build_interop.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    built = module.build()
    assert (DOCS / "interop.md").read_text(encoding="utf-8") == built, (
        "docs/interop.md is stale: run `python docs/build_interop.py`"
    )


def test_the_worked_example_trains_and_reports() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(DOCS / "examples" / "cabin_gym.py"),
            "--minutes",
            "0.04",
            "--deals",
            "2",
            "--no-expert",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "trained (" in out.stdout and "greedy" in out.stdout and "random" in out.stdout


@pytest.mark.parametrize(
    "section", ["### N tables in one process", "### A learner at a multiplayer table"]
)
def test_the_vector_and_seat_examples_run(section: str) -> None:
    text = (DOCS / "interop.md").read_text(encoding="utf-8")
    start = text.index(section)
    end = text.index("\n##", start + len(section))
    blocks = re.findall(r"```python\n(.*?)```", text[start:end], re.S)
    assert blocks, f"no example under {section!r}"
    exec(compile("\n".join(blocks), f"interop.md: {section}", "exec"), {})
