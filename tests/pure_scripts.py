"""Running a measuring script of ``docs/strength`` on the pure build, as its tests do.

The ``*_peek.py`` scripts replace methods of the interpreted classes (a compiled class's
cannot be replaced), so their tests run them in a subprocess with ``DECKLAB_PURE=1``,
whichever build the suite runs on.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

STRENGTH = Path(__file__).parent.parent / "docs" / "strength"
SRC = Path(__file__).parent.parent / "src"


def run_pure(
    script: str, code: str = "", *args: str, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``docs/strength/SCRIPT ARGS`` (or ``python -c CODE ARGS`` when ``code`` is given)
    on the pure build, with ``docs/strength`` and ``src`` on the path."""
    env = {
        **os.environ,
        "DECKLAB_PURE": "1",
        "PYTHONPATH": os.pathsep.join([str(STRENGTH), str(SRC)]),
    }
    argv = ["-c", code] if code else [str(STRENGTH / script)]
    return subprocess.run(
        [sys.executable, *argv, *args], env=env, capture_output=True, text=True, timeout=timeout
    )
