"""The Corporation variant plugin through the lab: ``decklab simulate`` and ``arena`` with
two worker processes and on a local Ray, in processes of their own that find the
plugin only through its entry point (``PYTHONPATH`` holds the ``--target`` folder).

The rule change shows: at 6 players, with the reward value × (members − 1), greedy
tables take more rounds to reach the target than with the rules' value × members.

These run on whichever build is active: the compiled one when it is present and
current (and ``DECKLAB_PURE`` is not set), else pure Python; with
``DECKLAB_REQUIRE_COMPILED=1`` the compiled one must be the one that ran.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

REQUIRED = os.environ.get("DECKLAB_REQUIRE_COMPILED", "") not in ("", "0")


def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "decklab.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done


def _rounds(folder: Path) -> tuple[list[int], dict[str, Any]]:
    rows = pq.read_table(sorted((folder / "rows").rglob("*.parquet"))).to_pydict()
    rounds = [dict(events)["rounds"] for events in rows["events"]]
    return rounds, json.loads(rows["options"][0])


def _build() -> str:
    done = subprocess.run(
        [sys.executable, "-c", "import decklab; print(decklab.BUILD)"],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ.copy(),
    )
    return done.stdout.strip()


def test_the_active_build_is_the_one_asked_for(plugins: Path) -> None:
    build = _build()
    assert build in ("compiled", "pure")
    if REQUIRED:
        assert build == "compiled", "DECKLAB_REQUIRE_COMPILED is set but pure Python ran"


def _simulate(game: str, out: Path, *backend: str) -> tuple[list[int], dict[str, Any]]:
    _cli(
        "simulate", game, "-p", "greedy", "-n", "6", "-g", "24", "--seed", "4",
        "--out", str(out), "--no-progress", *backend,
    )  # fmt: skip
    return _rounds(out)


def test_simulate_with_two_workers_plays_the_variants_rules(plugins: Path, tmp_path: Path) -> None:
    base, base_opts = _simulate("corporation", tmp_path / "base", "--workers", "2")
    variant, opts = _simulate("corporation-shared-reward", tmp_path / "var", "--workers", "2")
    assert base_opts["reward"] == "standard" and opts["reward"] == "shared"
    assert len(base) == len(variant) == 24
    # a smaller reward takes the table longer to reach the same target
    assert statistics.mean(variant) > statistics.mean(base) + 0.5, (base, variant)
    # and `decklab compare` pairs the variant with its base game, deal by deal
    done = _cli("compare", str(tmp_path / "base"), str(tmp_path / "var"), "--json")
    data = json.loads(done.stdout)
    assert (data["game"], data["game_b"]) == ("corporation", "corporation-shared-reward")
    rounds = next(d for d in data["differences"] if d["metric"] == "rounds")
    assert rounds["deals"] == 24 and rounds["difference"] > 0.5


def test_simulate_on_a_local_ray_gives_what_two_workers_give(plugins: Path, tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'decklab[cluster]')")
    local, _ = _simulate("corporation-shared-reward", tmp_path / "local", "--workers", "2")
    on_ray, opts = _simulate("corporation-shared-reward", tmp_path / "ray", "--ray", "local")
    assert opts["reward"] == "shared"
    assert sorted(on_ray) == sorted(local)


def test_arena_with_two_workers_and_the_expert_plays_the_variant(plugins: Path) -> None:
    """The expert searches determinizations drawn from the table model; both read the hook."""
    done = _cli(
        "arena", "corporation-shared-reward", "-p", "expert:iters=8,greedy", "-g", "4",
        "-n", "4", "-o", "target=20", "--seed", "2", "--workers", "2", "--json",
    )  # fmt: skip
    report = json.loads(done.stdout)
    assert report["games"] == 4
    assert report["game"] == "corporation-shared-reward"
