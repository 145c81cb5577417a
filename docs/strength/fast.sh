#!/bin/sh
# The fast bot's measurements (docs/strength.md, "The fast bot"): run from the repository root.
#   sh docs/strength/fast.sh            # writes docs/strength/fast/*.json and times.txt
# Pure-Python build, one worker per match, new seed 2027; `nice` because the machine is shared.
set -eu
out=docs/strength/fast
mkdir -p "$out"
: > "$out/times.txt"
arena() {  # name game lineup games
    start=$(date +%s)
    nice -n 10 decklab arena "$2" -p "$3" -g "$4" --seed 2027 --json --no-progress > "$out/$1.json"
    echo "$1 $(( $(date +%s) - start ))s" >> "$out/times.txt"
}
vs_greedy() {
    arena facade-fast-vs-greedy facade fast,greedy 400
    arena lonely-face-fast-vs-greedy lonely-face fast,greedy 800
    arena notorious-fast-vs-greedy notorious fast,greedy,greedy,greedy 400
    arena corporation-fast-vs-greedy corporation fast,greedy,greedy,greedy,greedy 400
    start=$(date +%s)
    nice -n 10 python bench/fast_bot.py cabin --deals 100 --json > "$out/cabin-paired.json"
    echo "cabin-paired $(( $(date +%s) - start ))s" >> "$out/times.txt"
}
vs_expert() {
    arena facade-fast-vs-expert facade fast,expert 40
    arena lonely-face-fast-vs-expert lonely-face fast,expert 40
    arena notorious-fast-vs-expert notorious fast,expert,expert,expert 40
    arena corporation-fast-vs-expert corporation fast,expert,expert,expert,expert 40
    start=$(date +%s)
    nice -n 10 python bench/fast_bot.py timing --positions 30 --json > "$out/timing.json"
    echo "timing $(( $(date +%s) - start ))s" >> "$out/times.txt"
}
vs_greedy &
vs_expert
wait
