"""Settings shared by the whole suite.

pytest-xdist's workers run with ``COLUMNS=80`` in their environment, and a Rich
console created at import time keeps that width for good, so the CLI tests that pass
``COLUMNS`` to ``CliRunner.invoke`` would see a narrower table than they asked for.
Dropping the variable before anything imports :mod:`decklab.cli` lets each test's own
environment decide, as it does without workers.
"""

from __future__ import annotations

import os

for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)
