#!/usr/bin/env bash
# Reruns the findings pages' simulations and rebuilds their reports and plots.
#   bash docs/findings/rerun.sh [PAGE ...]      PAGE: facade cabin corporation lonely-face notorious
#                                               facade-extra facade-edge facade-skill (optional
#                                               extra runs for the Façade page), facade-earlier,
#                                               corporation-targets, cabin-bound and
#                                               lonely-face-variants (the earlier runs those
#                                               pages keep), lonely-face-expert (the expert check of the
#                                               opening option); default: all
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
  # greedy at every seat: 2, 3, 4 players, with and without the fifth suit (same deals)
  lab sweep facade -p greedy --vary players=2,3,4 --vary fifth_suit=false,true \
    --games 800 --seed 1 --out "$OUT/facade"
  report "$OUT/facade" facade
  # the first bidder with the expert at every seat, 3 and 4 players (the same deals' seeds)
  lab sweep facade -p "$G" --vary players=3,4 --games 400 --seed 1 --out "$OUT/facade-first-bidder"
  report "$OUT/facade-first-bidder" facade-first-bidder
  # the fifth suit, paired per table size, and the expert's first bidder against greedy's on
  # the same deals; Holm across the page
  local args=() n
  for n in 2 3 4; do
    args+=(--pair "fifth suit, $n players" "$OUT/facade/cell-players-${n}__fifth_suit-false" \
      "$OUT/facade/cell-players-${n}__fifth_suit-true")
  done
  for n in 3 4; do
    args+=(--pair "expert − greedy, $n players" "$OUT/facade/cell-players-${n}__fifth_suit-false" \
      "$OUT/facade-first-bidder/cell-players-$n")
  done
  $PY "$D/paired_page.py" "${args[@]}" --out "$D/facade-paired.json" >"$OUT/facade-paired.md"
  $PY "$D/plots.py" facade
}

facade_edge() {
  # the headline: one expert among three greedy seats, every rotation, 60 deals an arm,
  # with and without the fifth suit (the review's run; under 2 minutes an arm on a quiet core,
  # compiled build)
  lab simulate facade -p "$G,greedy,greedy,greedy" --games 240 --seed 7 --out "$OUT/facade-edge-4-60"
  lab simulate facade -p "$G,greedy,greedy,greedy" -o fifth_suit=true --games 240 --seed 7 \
    --out "$OUT/facade-edge-4-60-fifth"
  report "$OUT/facade-edge-4-60" facade-edge-4-60
  report "$OUT/facade-edge-4-60-fifth" facade-edge-4-60-fifth
  decklab compare "$OUT/facade-edge-4-60" "$OUT/facade-edge-4-60-fifth" --json \
    >"$D/facade-edge-4-60-paired.json"
}

facade_earlier() {
  # the earlier runs kept on the page: the expert at every seat (20 games a variant) and one
  # expert seat among greedy ones (18 deals at 4 players: superseded by facade-edge)
  lab sweep facade -p "$G" --vary players=2,3,4 --vary fifth_suit=false,true \
    --games 20 --seed 1 --out "$OUT/facade-expert"
  report "$OUT/facade-expert" facade-expert
  lab simulate facade -p "$G,greedy" --games 24 --seed 1 --out "$OUT/facade-edge-2"
  report "$OUT/facade-edge-2" facade-edge-2
  lab simulate facade -p "$G,greedy,greedy" --games 24 --seed 1 --out "$OUT/facade-edge-3"
  report "$OUT/facade-edge-3" facade-edge-3
  lab simulate facade -p "$G,greedy,greedy,greedy" --games 72 --seed 1 --out "$OUT/facade-edge-4"
  report "$OUT/facade-edge-4" facade-edge-4
  lab simulate facade -p "$G,greedy,greedy,greedy" -o fifth_suit=true --games 72 --seed 1 \
    --out "$OUT/facade-edge-4-fifth"
  report "$OUT/facade-edge-4-fifth" facade-edge-4-fifth
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
  # The difficulty ladder: 8, 7 and 6 stacks, each with and without the beach dump (C2, C6),
  # every rung on the same deals (seed 1; C7: a deal is its seed), so each rung is compared
  # with the rules' game (8 stacks, no dump) deal by deal: greedy on 2,000 deals a rung,
  # fast on 1,000, the expert on 30.
  local a games
  for a in greedy:2000 fast:1000 expert:30; do
    games=${a#*:} a=${a%%:*}
    lab sweep cabin -p "$a" --vary stacks=8,7,6 --vary beach_dump=false,true --games "$games" \
      --seed 1 --out "$OUT/cabin-ladder-$a"
    report "$OUT/cabin-ladder-$a" "cabin-ladder-$a"
  done
  # every rung against the rules' game, paired, Holm across the page; percentiles per rung
  local args=() rung cell
  for a in greedy fast expert; do
    for rung in "8:false:8" "8:true:8 + dump" "7:false:7" "7:true:7 + dump" "6:false:6" "6:true:6 + dump"; do
      IFS=: read -r stacks dump label <<<"$rung"
      cell="$OUT/cabin-ladder-$a/cell-stacks-${stacks}__beach_dump-$dump"
      args+=(--summary "$a: $label" "$cell")
      [ "$label" = 8 ] || args+=(--pair "$a: $label" "$OUT/cabin-ladder-$a/cell-stacks-8__beach_dump-false" "$cell")
    done
    for stacks in 7 6; do  # what the dump does at the harder rungs (at 8: the ladder's "8 + dump")
      args+=(--pair "$a: the dump at $stacks" "$OUT/cabin-ladder-$a/cell-stacks-${stacks}__beach_dump-false" \
        "$OUT/cabin-ladder-$a/cell-stacks-${stacks}__beach_dump-true")
    done
  done
  $PY "$D/paired_page.py" "${args[@]}" --family score --show score,"perfect games",length,"beach dumps" \
    --out "$D/cabin-ladder.json" >"$OUT/cabin-ladder.md"
  $PY "$D/plots.py" cabin-ladder
}

cabin_bound() {
  # the earlier run kept on the page: greedy and the expert at 8/7 stacks × the dump, and
  # the clairvoyant bound (the exact solver on the true deal) on the expert's deals
  lab sweep cabin -p greedy --vary stacks=8,7 --vary beach_dump=false,true --games 2000 \
    --seed 1 --out "$OUT/cabin"
  report "$OUT/cabin" cabin
  lab sweep cabin -p expert --vary stacks=8,7 --vary beach_dump=false,true --games 80 \
    --seed 1 --out "$OUT/cabin-expert"
  report "$OUT/cabin-expert" cabin-expert
  $PY "$D/cabin_bound.py" "$OUT/cabin-expert" "$OUT/cabin" --deals 80 --dump-deals 40 \
    --workers "$W" --out "$OUT/cabin-bound.json" >/dev/null
  cp "$OUT/cabin-bound.json" "$D/cabin-bound.json"
  $PY "$D/plots.py" cabin
}

corporation() {
  # the rule's target (2n²) at 4 to 10 players, a mixed field (greedy and random seats
  # alternating, every rotation on every deal), with the rules' reward and with the plugin
  # example's value × (members − 1) on the same deals. The plugin must be installed:
  #   pip install --no-deps ./examples/plugins/corporation_reward
  local args=() n
  for n in 4 5 6 7 8 9 10; do
    lab simulate corporation -p greedy,random -n "$n" -g 2000 --seed 1 --out "$OUT/corporation-rule-$n"
    report "$OUT/corporation-rule-$n" "corporation-rule-$n"
    lab simulate corporation-shared-reward -p greedy,random -n "$n" -g 2000 --seed 1 \
      --out "$OUT/corporation-shared-$n"
    report "$OUT/corporation-shared-$n" "corporation-shared-$n"
    args+=(--pair "$n players" "$OUT/corporation-rule-$n" "$OUT/corporation-shared-$n")
  done
  $PY "$D/paired_page.py" "${args[@]}" --out "$D/corporation-paired.json" >"$OUT/corporation-paired.md"
  # the stronger bot against greedy (alternating seats, every rotation) at the rule's target
  lab sweep corporation -p "$G,greedy" --vary players=4,6 --games 40 --seed 1 \
    --out "$OUT/corporation-expert"
  report "$OUT/corporation-expert" corporation-expert
  $PY "$D/plots.py" corporation-payout
}

corporation_targets() {
  # the earlier runs kept on the page: five targets at 4 to 8 players, random play, and
  # greedy self-play
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
  $PY "$D/plots.py" corporation
}

lonely_face_opening() {
  # the opening grid without pairs (option opening=no_pairs) against the rules' deal, agent $1
  # at every seat, 2, 3 and 4 players, $2 deals a table size, the same deals (seed 1) with and
  # without it; its own Holm family. Greedy's runs are lonely-face-opening-N, another agent's
  # lonely-face-opening-AGENT-N
  local agent=$1 games=$2 name=lonely-face-opening args=() n
  [ "$agent" = greedy ] || name+="-$agent"
  for n in 2 3 4; do
    lab sweep lonely-face -p "$agent" -n "$n" --vary opening=deal,no_pairs --games "$games" \
      --seed 1 --out "$OUT/$name-$n"
    report "$OUT/$name-$n" "$name-$n"
    args+=(--pair "$n players" "$OUT/$name-$n/cell-opening-deal" "$OUT/$name-$n/cell-opening-no_pairs")
  done
  $PY "$D/paired_page.py" "${args[@]}" --out "$D/$name.json" >"$OUT/$name.md"
}

lonely_face() {
  # greedy on 2,000 deals a table size, and the page's plot
  lonely_face_opening greedy 2000
  $PY "$D/plots.py" lonely-face-opening
}

lonely_face_expert() {
  # the same option with the expert at every seat (the check the page waited for: the expert's
  # seat fairness), 300 deals a table size
  lonely_face_opening expert 300
}

lonely_face_variants() {
  # the earlier run kept on the page: the turn deck or the suit die, and the stall rule
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
  # every row tested against a fair share, Holm across both sweeps
  $PY "$D/notorious_fair.py" greedy="$D/notorious.json" expert="$D/notorious-expert.json" \
    --out "$D/notorious-fair.json" >"$OUT/notorious-fair.md"
  # restricted play: never face up, never face down, at one seat, 100 deals a table size
  local n
  for n in 3 4 5; do
    decklab restricted notorious --players "$n" --games $((n * 100)) --seed 1 --workers "$W" --json \
      >"$D/notorious-restricted-$n.json"
  done
  $PY "$D/plots.py" notorious
}

pages=("$@")
[ ${#pages[@]} -eq 0 ] && pages=(facade cabin corporation lonely-face notorious facade-extra facade-edge facade-earlier facade-skill
  corporation-targets cabin-bound lonely-face-variants lonely-face-expert)
for page in "${pages[@]}"; do
  start=$(date +%s)
  "${page//-/_}"
  echo "$page: $(($(date +%s) - start)) s" >&2
done
