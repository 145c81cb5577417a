"""A plain install never crashes: decklab without extras, in a fresh virtual environment
(not sharing this one's packages), runs every command's ``--help`` and a small run of
each; a command that needs an extra says which in one line and exits 2, no traceback.

Slow (it installs decklab and its core dependencies from the package registry), and
skipped when the registry cannot be reached.
"""

from __future__ import annotations

import json
import os
import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The fresh venv installs and runs pure Python (DECKLAB_PURE=1, and no mypyc there) on
# either build of this one, so make test-pure would only repeat it (tests/conftest.py).
pytestmark = pytest.mark.once

HELP = [
    "games", "rules", "deal", "replay", "play", "stats", "bots", "arena", "simulate",
    "sweep", "tune", "skill", "report", "redact", "verify-deal", "serve", "db",
]  # fmt: skip

NEEDS_LAB = [
    ["arena", "facade", "-p", "greedy,random", "-g", "2", "-w", "1", "--no-progress"],
    ["simulate", "cabin", "-p", "random", "-g", "2", "-w", "1", "--out", "sim", "--no-progress"],
    ["sweep", "cabin", "-p", "random", "-g", "2", "-w", "1", "--out", "sw",
     "--vary", "stacks=3,4", "--no-progress"],
    ["tune", "cabin", "-p", "random", "-g", "2", "-w", "1", "--out", "tu",
     "--param", "stacks=3..4", "--goal", "score=max", "--no-progress"],
    ["skill", "cabin", "--agent", "ismcts", "--param", "iters", "--budgets", "4,8",
     "-g", "2", "-w", "1", "--out", "sk", "--no-progress"],
    ["report", "sim"],
]  # fmt: skip


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``decklab`` script of a fresh venv holding decklab and its core dependencies."""
    home = tmp_path_factory.mktemp("plain")
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(home / "venv")
    python = home / "venv" / "bin" / "python"
    env = {**os.environ, "DECKLAB_PURE": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(ROOT)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    if done.returncode != 0:
        if "Could not find a version" in done.stderr or "connection" in done.stderr.lower():
            pytest.skip(reason=f"the package registry cannot be reached: {done.stderr[-300:]}")
        raise AssertionError(f"pip install failed:\n{done.stderr[-2000:]}")
    return home / "venv" / "bin" / "decklab"


def _run(script: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["HOME"] = str(cwd)  # statistics and saved games stay in the test's folder
    env["XDG_DATA_HOME"] = str(cwd / "data")
    return subprocess.run(
        [str(script), *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
    )


@pytest.mark.slow
def test_a_plain_install_runs_every_command_or_names_the_extra(plain: Path, tmp_path: Path) -> None:
    python = plain.parent / "python"
    probe = subprocess.run(
        [str(python), "-c", "import importlib.util as u; print(u.find_spec('numpy') is None)"],
        capture_output=True,
        text=True,
    )
    assert probe.stdout.strip() == "True", "the fresh venv must not see numpy"
    for command in HELP:
        got = _run(plain, [command, "--help"], tmp_path)
        assert got.returncode == 0 and "Usage" in got.stdout, (command, got.stderr[-500:])
    record = tmp_path / "deal.json"
    for args in (
        ["games"],
        ["rules", "cabin"],
        ["bots"],
        ["deal", "cabin", "--out", str(record)],
        ["replay", str(record), "--viewer", "p1"],
        ["redact", str(record), "--seat", "p1"],
        ["stats", "cabin"],
        ["play", "cabin", "-p", "random", "--plain", "--seed", "1"],
        ["db", "upgrade", "--database", f"sqlite:///{tmp_path / 'decklab.db'}"],
    ):
        got = _run(plain, args, tmp_path)
        assert got.returncode == 0, (args, got.stderr[-800:])
        assert "Traceback" not in got.stderr
    assert json.loads(record.read_text())["game"] == "cabin"
    for args in NEEDS_LAB:
        got = _run(plain, args, tmp_path)
        assert "Traceback" not in got.stderr, (args, got.stderr[-800:])
        assert got.returncode == 2, (args, got.returncode, got.stderr[-800:])
        lines = [line for line in got.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and "pip install 'decklab[lab]'" in lines[0], (args, lines)
