#!/bin/bash
# Reproduces docs/strength.md: every arena behind it, with its wall time.
# Run from the repository root: bash docs/strength/run.sh  (2 worker processes)
set -u
D=docs/strength
W=2
SEED=2026
ISM="ismcts:iters=48,prior=greedy,widen=1,depth=6"
PIM="pimc:iters=48,dets=8,prior=greedy,widen=1,depth=6"
ISM4="ismcts:iters=192,prior=greedy,widen=1,depth=6"
PIM4="pimc:iters=192,dets=8,prior=greedy,widen=1,depth=6"
# seats: the agent under test in one seat, its opponent in all the others
others() { local spec=$1 n=$2 out=""; for ((i = 1; i < n; i++)); do out+=",$spec"; done; echo "$out"; }
run() {  # name game seats games a b
  local name=$1 game=$2 n=$3 games=$4 a=$5 b=$6
  local start=$(date +%s)
  .venv/bin/decklab arena "$game" -p "$a$(others "$b" "$n")" -g "$games" --seed $SEED \
    --workers $W --json --no-progress > "$D/$name.json"
  echo "$name $(( $(date +%s) - start ))s" | tee -a "$D/times.txt"
}
: > "$D/times.txt"
for spec in "corporation 5" "facade 2" "lonely-face 2" "notorious 4"; do
  set -- $spec
  run "$1-greedy-vs-random" "$1" "$2" 400 greedy random
done
for spec in "corporation 5" "facade 2" "lonely-face 2" "notorious 4"; do
  set -- $spec
  run "$1-ismcts-vs-greedy" "$1" "$2" 400 "$ISM" greedy
  run "$1-ismcts-vs-pimc" "$1" "$2" 400 "$ISM" "$PIM"
done
for spec in "corporation 5" "facade 2" "lonely-face 2" "notorious 4"; do
  set -- $spec
  run "$1-ismcts4x-vs-greedy" "$1" "$2" 100 "$ISM4" greedy
  run "$1-ismcts4x-vs-pimc4x" "$1" "$2" 100 "$ISM4" "$PIM4"
done
