#!/usr/bin/env bash
# Reruns every findings page's simulations and rebuilds its HTML report.
#   bash docs/findings/rerun.sh [OUT] [WORKERS]
# Results go to OUT (default runs/findings, outside git); the reports are copied
# next to this script. Every run resumes if interrupted: rerun the same line.
set -euo pipefail
OUT=${1:-runs/findings}
W=${2:-2}
D=$(dirname "$0")
lab() { decklab "$@" --workers "$W" --no-progress; }
report() { decklab report "$1" && cp "$1/report.html" "$D/$2.html" && cp "$1/report.json" "$D/$2.json"; }

# Façade: 2, 3, 4 players, with and without the fifth suit (greedy at every seat).
lab sweep facade -p greedy --vary players=2,3,4 --vary fifth_suit=false,true \
  --games 300 --seed 1 --out "$OUT/facade"
report "$OUT/facade" facade
# The Cabin: 8 and 7 stacks, with and without the beach dump (greedy).
lab sweep cabin -p greedy --vary stacks=8,7 --vary beach_dump=false,true --games 400 --seed 1 \
  --out "$OUT/cabin"
report "$OUT/cabin" cabin
# greedy dumps every sea card when it may (see the page): the expert on fewer deals
lab sweep cabin -p expert --vary stacks=8,7 --vary beach_dump=false,true --games 40 --seed 1 \
  --out "$OUT/cabin-expert"
report "$OUT/cabin-expert" cabin-expert

# Corporation: target n², 2n² (the rule) and 3n² at 4, 5 and 6 players (greedy).
for n in 4 5 6; do
  lab sweep corporation -p greedy -n "$n" --vary target=$((n*n)),$((2*n*n)),$((3*n*n)) \
    --games 500 --seed 1 --out "$OUT/corporation-$n"
  report "$OUT/corporation-$n" "corporation-$n"
  # greedy copies cooperate perfectly (see the page): a mixed field, greedy and random seats
  lab sweep corporation -p greedy,random -n "$n" --vary target=$((n*n)),$((2*n*n)),$((3*n*n)) \
    --games 500 --seed 1 --out "$OUT/corporation-mixed-$n"
  report "$OUT/corporation-mixed-$n" "corporation-mixed-$n"
done

# Lonely Face: the turn deck or the suit die, and the stall rule (greedy, 2 and 3 players).
lab sweep lonely-face -p greedy --vary players=2,3 --vary suit_die=false,true \
  --vary stall_rounds=3,10 --games 300 --seed 1 --out "$OUT/lonely-face"
report "$OUT/lonely-face" lonely-face

# Notorious: lead-off, tie-break and disqualification at 3, 4 and 5 players (greedy).
lab sweep notorious -p greedy --vary players=3,4,5 --games 300 --seed 1 --out "$OUT/notorious"
report "$OUT/notorious" notorious

# Façade: How much skill matters at each table size: ismcts at b iterations against b/2.
for n in 2 3 4; do
  lab skill facade --agent ismcts --budgets 8,16,32 --games 60 -n "$n" --seed 1 --out "$OUT/facade-skill-$n"
  report "$OUT/facade-skill-$n" "facade-skill-$n"
done

