#!/bin/sh
# Each level against the next, per game: the figures of docs/strength.md ("Levels").
# Usage: sh bench/levels.sh [GAMES] [SLOW]   (from the repository root, the venv's python on PATH)
# GAMES games a row (default 40); SLOW for Notorious strong vs expert (default 12: 40 games
# there take about an hour of one shared core). About 50 minutes in all at the defaults.
set -e
GAMES=${1:-40}
SLOW=${2:-12}
run() {  # game seats a b
    start=$(date +%s)
    echo "== $1 ($2 seats): $3 vs $4, $GAMES games"
    nice -n 10 python -m decklab.cli arena "$1" -n "$2" -p "$3,$4" -g "$GAMES" --seed 2026 --no-progress --json \
        | python -c 'import json,sys; r=json.load(sys.stdin); [print("  ", a["label"], a["games"], "win %.3f [%.3f, %.3f]" % (a["win_rate"], a["win_low"], a["win_high"]), "score %.2f [%.2f, %.2f]" % (a["mean_score"], a["score_low"], a["score_high"])) for a in r["per_agent"]]; print("   s/decision", json.dumps(r.get("seconds_per_decision")))'
    echo "   wall $(( $(date +%s) - start )) s"
}
for pair in "beginner casual" "casual strong" "strong expert"; do
    set -- $pair
    run facade 2 "$1" "$2"
    run lonely-face 2 "$1" "$2"
    run cabin 1 "$1" "$2"
    run corporation 4 "$1" "$2"
    if [ "$1" = strong ]; then ALL=$GAMES; GAMES=$SLOW; run notorious 4 "$1" "$2"; GAMES=$ALL
    else run notorious 4 "$1" "$2"; fi
done
