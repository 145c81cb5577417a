#!/bin/bash
# Reproduces docs/strength.md: every arena behind it, with its wall time.
# Run from the repository root: bash docs/strength/run.sh  (2 worker processes)
# bash docs/strength/run.sh facade-ismcts-vs-pimc …  runs only the matches named
# (their times are appended to times.txt instead of starting it afresh).
set -u
D=docs/strength
W=2
SEED=2026
DECKLAB=${DECKLAB:-.venv/bin/decklab}
# The guidance both search agents share (see docs/strength.md, "The agents").
G="rollout=greedy,depth=8,prior=greedy,model=1,topk=4,margin=0.7,purify=0.5,gamma=0.3"
# Iterations per decision: 48, and 96 in Lonely Face, whose iterations cost half as much.
iters() { if [ "$1" = lonely-face ]; then echo 96; else echo 48; fi; }
ism() { echo "ismcts:iters=$(( $(iters "$1") * ${2:-1} )),root=halving,$G"; }
pim() { echo "pimc:iters=$(( $(iters "$1") * ${2:-1} )),dets=8,$G"; }
# seats: the agent under test in one seat, its opponent in all the others
others() { local spec=$1 n=$2 out=""; for ((i = 1; i < n; i++)); do out+=",$spec"; done; echo "$out"; }
ONLY=" $* "
run() {  # name game seats games a b
  local name=$1 game=$2 n=$3 games=$4 a=$5 b=$6
  if [ "$ONLY" != "  " ] && [[ "$ONLY" != *" $name "* ]]; then return; fi
  local start=$(date +%s)
  $DECKLAB arena "$game" -p "$a$(others "$b" "$n")" -g "$games" --seed $SEED \
    --workers $W --json --no-progress > "$D/$name.json"
  echo "$name $(( $(date +%s) - start ))s" | tee -a "$D/times.txt"
}
if [ $# -eq 0 ]; then : > "$D/times.txt"; fi
GAMES=("corporation 5" "lonely-face 2" "notorious 4" "facade 2")
for spec in "${GAMES[@]}"; do
  set -- $spec
  run "$1-greedy-vs-random" "$1" "$2" 400 greedy random
done
for spec in "${GAMES[@]}"; do
  set -- $spec
  run "$1-ismcts-vs-greedy" "$1" "$2" 400 "$(ism "$1")" greedy
done
for spec in "${GAMES[@]}"; do
  set -- $spec
  run "$1-ismcts-vs-pimc" "$1" "$2" 400 "$(ism "$1")" "$(pim "$1")"
done
for spec in "${GAMES[@]}"; do
  set -- $spec
  run "$1-ismcts4x-vs-greedy" "$1" "$2" 40 "$(ism "$1" 4)" greedy
done
# Why Lonely Face gets 96: the same match at 48 iterations.
run "lonely-face-ismcts48-vs-greedy" lonely-face 2 400 "ismcts:iters=48,root=halving,$G" greedy
