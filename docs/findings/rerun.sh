#!/usr/bin/env bash
# Reruns the findings pages' simulations and rebuilds their reports and plots.
#   bash docs/findings/rerun.sh [PAGE ...]      PAGE: facade cabin corporation lonely-face notorious
#                                               facade-extra facade-skill (the last two: optional
#                                               extra runs for the Façade page; default: all)
#   OUT=runs/findings WORKERS=2 bash docs/findings/rerun.sh facade   (decklab and python on PATH:
#   `. .venv/bin/activate` first)
# Results go to OUT (default runs/findings, outside git); the HTML/JSON reports are copied
# next to this script and the PNG plots redrawn there. Every run resumes if interrupted:
# rerun the same line. Each page prints the wall time it took (the figures on the pages
# were measured on the shared 2-core machine under `nice -n 10`, with other jobs running).
set -euo pipefail
OUT=${OUT:-runs/findings}
W=${WORKERS:-2}
D=$(dirname "$0")
PY=${PYTHON:-python}
lab() { decklab "$@" --workers "$W" --no-progress; }
report() { decklab report "$1" >/dev/null && cp "$1/report.html" "$D/$2.html" && cp "$1/report.json" "$D/$2.json"; }
G='expert:iters=48'  # the expert's guided ISMCTS at 48 iterations a decision (docs/strength.md ×1)

facade() {
  # greedy at every seat: 2, 3, 4 players, with and without the fifth suit
  lab sweep facade -p greedy --vary players=2,3,4 --vary fifth_suit=false,true \
    --games 3000 --seed 1 --out "$OUT/facade"
  report "$OUT/facade" facade
  # the stronger bot at every seat, few games: do greedy's conclusions hold?
  lab sweep facade -p "$G" --vary players=2,3,4 --vary fifth_suit=false,true \
    --games 20 --seed 1 --out "$OUT/facade-expert"
  report "$OUT/facade-expert" facade-expert
  # how chaotic: one expert seat against greedy ones, at each table size (more at 4 players,
  # where the question is)
  lab simulate facade -p "$G,greedy" --games 24 --seed 1 --out "$OUT/facade-edge-2"
  report "$OUT/facade-edge-2" facade-edge-2
  lab simulate facade -p "$G,greedy,greedy" --games 24 --seed 1 --out "$OUT/facade-edge-3"
  report "$OUT/facade-edge-3" facade-edge-3
  lab simulate facade -p "$G,greedy,greedy,greedy" --games 72 --seed 1 --out "$OUT/facade-edge-4"
  report "$OUT/facade-edge-4" facade-edge-4
  lab simulate facade -p "$G,greedy,greedy,greedy" -o fifth_suit=true --games 72 --seed 1 \
    --out "$OUT/facade-edge-4-fifth"
  report "$OUT/facade-edge-4-fifth" facade-edge-4-fifth
  $PY "$D/plots.py" facade
}

facade_extra() {
  # the first bidder's edge at 2 players with the stronger bot, on more deals (5.5 min here)
  lab simulate facade -p "$G" -n 2 --games 80 --seed 1 --out "$OUT/facade-expert-2"
  report "$OUT/facade-expert-2" facade-expert-2
}

facade_skill() {
  # the skill trace (TAG's ladder): ismcts at b iterations against b/2, 60 games a rung;
  # about 20 minutes on the shared machine (the reports on the page are from this command)
  for n in 2 3 4; do
    lab skill facade --agent ismcts --budgets 8,16,32 --games 60 -n "$n" --seed 1 \
      --out "$OUT/facade-skill-$n"
    report "$OUT/facade-skill-$n" "facade-skill-$n"
  done
}

cabin() {
  # greedy on many deals, the expert (the game's sampled-deal solver) on fewer, same deals
  lab sweep cabin -p greedy --vary stacks=8,7 --vary beach_dump=false,true --games 2000 \
    --seed 1 --out "$OUT/cabin"
  report "$OUT/cabin" cabin
  lab sweep cabin -p expert --vary stacks=8,7 --vary beach_dump=false,true --games 80 \
    --seed 1 --out "$OUT/cabin-expert"
  report "$OUT/cabin-expert" cabin-expert
  # the clairvoyant bound on the expert's deals (exact solver; with the dump a node limit)
  $PY "$D/cabin_bound.py" "$OUT/cabin-expert" "$OUT/cabin" --deals 80 --dump-deals 40 \
    --workers "$W" --out "$OUT/cabin-bound.json" >/dev/null
  cp "$OUT/cabin-bound.json" "$D/cabin-bound.json"
  $PY "$D/plots.py" cabin
}

corporation() {
  for n in 4 5 6; do
    # greedy in every seat (degenerate: copies of greedy cooperate perfectly, see the page)
    lab sweep corporation -p greedy -n "$n" --vary target=$((n * n)),$((2 * n * n)),$((3 * n * n)) \
      --games 500 --seed 1 --out "$OUT/corporation-$n"
    report "$OUT/corporation-$n" "corporation-$n"
  done
  for n in 4 5 6 7 8; do
    targets=$((n * n)),$((3 * n * n / 2)),$((2 * n * n)),$((5 * n * n / 2)),$((3 * n * n))
    # a mixed field, greedy and random seats alternating, every rotation on every deal
    lab sweep corporation -p greedy,random -n "$n" --vary target="$targets" \
      --games 2000 --seed 1 --out "$OUT/corporation-mixed-$n"
    report "$OUT/corporation-mixed-$n" "corporation-mixed-$n"
  done
  # the round cap's worst case: random play at every seat, the rule's target (2n², the default)
  lab sweep corporation -p random --vary players=4,5,6,7,8 --games 2000 --seed 1 \
    --out "$OUT/corporation-random"
  report "$OUT/corporation-random" corporation-random
  # the stronger bot against greedy (alternating seats) at the rule's target
  lab sweep corporation -p "$G,greedy" --vary players=4,5,6 --games 60 --seed 1 \
    --out "$OUT/corporation-expert"
  report "$OUT/corporation-expert" corporation-expert
  $PY "$D/plots.py" corporation
}

lonely_face() {
  lab sweep lonely-face -p greedy --vary players=2,3,4 --vary suit_die=false,true \
    --vary stall_rounds=3,10 --games 1500 --seed 1 --out "$OUT/lonely-face"
  report "$OUT/lonely-face" lonely-face
  lab sweep lonely-face -p "expert:iters=96" --vary players=2 --vary suit_die=false,true \
    --games 40 --seed 1 --out "$OUT/lonely-face-expert"
  report "$OUT/lonely-face-expert" lonely-face-expert
  $PY "$D/plots.py" lonely-face
}

notorious() {
  lab sweep notorious -p greedy --vary players=3,4,5 --games 2000 --seed 1 --out "$OUT/notorious"
  report "$OUT/notorious" notorious
  lab sweep notorious -p "$G" --vary players=3 --games 72 --seed 1 --out "$OUT/notorious-expert"
  report "$OUT/notorious-expert" notorious-expert
  $PY "$D/plots.py" notorious
}

pages=("$@")
[ ${#pages[@]} -eq 0 ] && pages=(facade cabin corporation lonely-face notorious facade-extra facade-skill)
for page in "${pages[@]}"; do
  start=$(date +%s)
  "${page//-/_}"
  echo "$page: $(($(date +%s) - start)) s" >&2
done
