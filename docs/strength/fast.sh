#!/bin/sh
# The fast bot's measurements (docs/strength.md, "The fast bot"): run from the repository root.
#   sh docs/strength/fast.sh            # writes docs/strength/fast/*.json and times.txt
# Pure-Python build, one worker per match, new seed 2027, every match its own process
# (the machine was shared: `nice`). Against expert at 4 and 5 seats, one expert sits
# with fast in every other seat: the expert's decisions are the cost.
set -eu
out=docs/strength/fast
mkdir -p "$out"
: > "$out/times.txt"
arena() {  # name game lineup games
    start=$(date +%s)
    nice -n 10 decklab arena "$2" -p "$3" -g "$4" --seed 2027 --json --no-progress > "$out/$1.json"
    echo "$1 $(( $(date +%s) - start ))s" >> "$out/times.txt"
}
bench() {  # name args...
    name=$1; shift
    start=$(date +%s)
    nice -n 10 python bench/fast_bot.py "$@" --json > "$out/$name.json"
    echo "$name $(( $(date +%s) - start ))s" >> "$out/times.txt"
}
arena facade-fast-vs-greedy facade fast,greedy 400 &
arena lonely-face-fast-vs-greedy lonely-face fast,greedy 300 &
arena notorious-fast-vs-greedy notorious fast,greedy,greedy,greedy 400 &
arena corporation-fast-vs-greedy corporation fast,greedy,greedy,greedy,greedy 400 &
arena facade-fast-vs-expert facade fast,expert 40 &
arena lonely-face-fast-vs-expert lonely-face fast,expert 40 &
arena notorious-expert-vs-fast notorious expert,fast,fast,fast 40 &
arena corporation-expert-vs-fast corporation expert,fast,fast,fast,fast 40 &
bench cabin-paired cabin --deals 50 &
bench timing timing --positions 30
wait
