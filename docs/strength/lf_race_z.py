"""``lf_spec.py`` with the root race's drop threshold changed (a screen, issue 20).

    DECKLAB_PURE=1 python docs/strength/lf_race_z.py Z FIRST COUNT NAME=SPEC [NAME=SPEC ...]

The race (``ismcts.race_moves``) drops a root move when the leader's paired mean
advantage over it exceeds ``RACE_Z`` = 2 standard errors; this plays as ``lf_spec.py``
does with ``Z`` instead. It replaces the module's ``race_moves``, which only the
interpreted build looks up at each call, so it refuses to run on the compiled one
(the two builds play the same moves: with ``Z`` = 2 it repeats the compiled runs).
"""

from __future__ import annotations

import functools
import runpy
import sys
from pathlib import Path

from decklab.bots import ismcts


def main() -> None:
    if not str(ismcts.__file__).endswith(".py"):
        raise SystemExit("run it on the pure build: DECKLAB_PURE=1")
    ismcts.race_moves = functools.partial(ismcts.race_moves, z=float(sys.argv[1]))
    sys.argv = [sys.argv[0], *sys.argv[2:]]
    runpy.run_path(str(Path(__file__).with_name("lf_spec.py")), run_name="__main__")


if __name__ == "__main__":
    main()
