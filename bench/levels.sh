#!/bin/sh
# Each level against the next, per game: the runs of docs/strength.md ("Levels"), section
# `levels` of docs/strength/build.py, which holds their commands and game counts and records
# each run's result with its wall and CPU time in docs/strength/runs/levels-*.json.
# Usage (from the repository root): sh bench/levels.sh [RUN IDS…]
#   no ids: every levels run still missing or stale; then the page is rendered again.
#   PYTHON=.venv/bin/python sh bench/levels.sh levels-facade-strong-expert
# `python docs/strength/build.py list --section levels` shows what is made;
# `… build.py estimate --section levels --missing` times the rest.
set -e
PY=${PYTHON:-python}
if [ $# -eq 0 ]; then set -- --section levels --missing; fi
nice -n 15 "$PY" docs/strength/build.py run "$@"
"$PY" docs/strength/build.py render
