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

# Façade: 2, 3, 4 players, with and without the fifth suit (greedy at every seat).
lab sweep facade -p greedy --vary players=2,3,4 --vary fifth_suit=false,true \
  --games 300 --seed 1 --out "$OUT/facade"
decklab report "$OUT/facade" --out "$OUT/facade" && cp "$OUT/facade/report.html" "$D/facade.html"
# How much skill matters at each table size: ismcts at b iterations against b/2.
for n in 2 3 4; do
  lab skill facade --agent ismcts --budgets 8,16,32 --games 60 -n "$n" --seed 1 --out "$OUT/facade-skill-$n"
  decklab report "$OUT/facade-skill-$n" && cp "$OUT/facade-skill-$n/report.html" "$D/facade-skill-$n.html"
done

# The Cabin: 8 and 7 stacks, with and without the beach dump (greedy; expert on fewer deals).
lab sweep cabin -p greedy --vary stacks=8,7 --vary beach_dump=false,true --games 400 --seed 1 \
  --out "$OUT/cabin"
decklab report "$OUT/cabin" && cp "$OUT/cabin/report.html" "$D/cabin.html"

# Corporation: target n², 2n² (the rule) and 3n² at 4, 5 and 6 players (greedy).
for n in 4 5 6; do
  lab sweep corporation -p greedy -n "$n" --vary target=$((n*n)),$((2*n*n)),$((3*n*n)) \
    --games 500 --seed 1 --out "$OUT/corporation-$n"
  decklab report "$OUT/corporation-$n" && cp "$OUT/corporation-$n/report.html" "$D/corporation-$n.html"
done

# Lonely Face: the turn deck or the suit die, and the stall rule (greedy, 2 and 3 players).
lab sweep lonely-face -p greedy --vary players=2,3 --vary suit_die=false,true \
  --vary stall_rounds=3,10 --games 300 --seed 1 --out "$OUT/lonely-face"
decklab report "$OUT/lonely-face" && cp "$OUT/lonely-face/report.html" "$D/lonely-face.html"

# Notorious: lead-off, tie-break and disqualification at 3, 4 and 5 players (greedy).
lab sweep notorious -p greedy --vary players=3,4,5 --games 300 --seed 1 --out "$OUT/notorious"
decklab report "$OUT/notorious" && cp "$OUT/notorious/report.html" "$D/notorious.html"
