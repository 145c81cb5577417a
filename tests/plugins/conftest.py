"""The example plugins, really installed: ``pip install --no-deps --no-build-isolation``
into a throwaway ``--target`` folder, which is put on ``sys.path`` (and on
``PYTHONPATH`` for the processes a test starts) so that ``importlib.metadata``
finds their ``dist-info`` and its entry points, as for any installed package.

The folder is made once per session; it is put on the path for each test module
here and taken off again after it, and the registry is told to read the entry
points again each time: the other tests of the session see exactly the
built-in games.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from decklab.engine import registry
from decklab.games.corporation import rewards

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "plugins"
PACKAGES = ("goofspiel", "corporation_reward")
SRC = ROOT / "src"


def install(target: Path) -> None:
    """pip-install both example packages into ``target`` (no network: no deps, no isolation)."""
    done = subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
            "--no-build-isolation", "--no-index", "--target", str(target),
            *(str(EXAMPLES / p) for p in PACKAGES),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]


def pythonpath(target: Path) -> str:
    """The sources first (this checkout's decklab), then the plugins, then what was there."""
    rest = os.environ.get("PYTHONPATH", "")
    return os.pathsep.join(p for p in (str(SRC), str(target), rest) if p)


@pytest.fixture(scope="session")
def plugin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the example plugins are installed in (once a session)."""
    target = tmp_path_factory.mktemp("plugins")
    install(target)
    return target


@pytest.fixture(scope="module")
def plugins(plugin_dir: Path) -> Iterator[Path]:
    """The plugins' folder, on ``sys.path`` (and ``PYTHONPATH``) for one test module:
    the modules of other folders, run later in the session, see the built-in games only."""
    target = plugin_dir
    old_env = os.environ.get("PYTHONPATH")
    sys.path.insert(0, str(target))
    os.environ["PYTHONPATH"] = pythonpath(target)
    importlib.invalidate_caches()
    registry.rescan_plugins()
    rewards.rescan()
    try:
        yield target
    finally:
        sys.path.remove(str(target))
        if old_env is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old_env
        importlib.invalidate_caches()
        registry.rescan_plugins()
        rewards.rescan()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A Chromium of this module's own: this folder is collected before ``tests/server``,
    and an open synchronous Playwright would leave its event loop running under every
    later test of the worker (see ``tests/conftest.py``'s ``chromium``)."""
    from browsers import chromium

    yield from chromium()
