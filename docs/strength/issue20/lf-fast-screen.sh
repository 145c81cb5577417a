#!/bin/sh
# Screens of `fast` against greedy in Lonely Face at 3 and 4 players (docs/strength.md,
# "The fast bot", "Third round"). The variants are knobs of an experimental copy of
# games/lonely_face/fast.py, read from the environment variable LFX: apply
#   git apply docs/strength/issue20/lf-fast-screen.diff
# on commit 271459c (not shipped; revert it after), build (setup.py build_ext --inplace),
# then run, e.g.:  sh docs/strength/issue20/lf-fast-screen.sh 3 600 31 "" "beta=1"
# Knobs (3-4 players only unless all=1): mu=M (reply = the next player's realized gain
# + M x what it leaves to the player after), w=W (weight of that reply), lead=L (reply
# weight when the next player stays behind), face=/heart=/spade= (the seat's own hand
# worth), top=K (candidates), delta=D (bonus of greedy's favourite), alpha=A (blend with
# greedy's rating), beta=B (+ B x the seat's own expected best swap next turn on the
# grid it leaves), w2=W (- W x the later opponents' best moves on that grid).
# deep=1 (a whole round enumerated, see the .txt), myw=W (its last term).
# nojudge=1: no judge, so `fast` plays its generic rollouts.
# One output line a variant: the first seat's win share, its 95% Wilson interval, the
# mean score and the wall ms a decision (2 workers, loaded machine).
n=$1; g=$2; seed=$3; shift 3
lineup=fast; i=2; while [ $i -le "$n" ]; do lineup=$lineup,greedy; i=$((i + 1)); done
for x in "$@"; do
  LFX="$x" python -m decklab.cli arena lonely-face -n "$n" -p "$lineup" -g "$g" \
    --seed "$seed" --json --no-progress --workers 2 > "${TMPDIR:-/tmp}/lf-fast-screen.json"
  python - "$n" "$seed" "$x" "${TMPDIR:-/tmp}/lf-fast-screen.json" <<'PY'
import json, sys
n, seed, x, path = sys.argv[1:]
d = json.load(open(path)); a = d["per_agent"][0]; s = d["seconds_per_decision"]["fast"]
print(f"n={n} seed={seed} LFX=[{x}] games={a['games']} fast={100*a['win_rate']:.1f}% "
      f"({100*a['win_low']:.1f}-{100*a['win_high']:.1f}) score={a['mean_score']:.2f} ms={1000*s:.3f}")
PY
done
