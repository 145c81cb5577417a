"""Print the tables of docs/strength.md from the arena JSON files next to this script.

Usage: .venv/bin/python docs/strength/table.py [base|x4]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
GAMES = [("corporation", 5), ("facade", 2), ("lonely-face", 2), ("notorious", 4)]
MATCHES = {
    "base": [
        ("greedy-vs-random", "greedy vs random"),
        ("ismcts-vs-greedy", "ismcts vs greedy"),
        ("ismcts-vs-pimc", "ismcts vs pimc"),
    ],
    "x4": [("ismcts4x-vs-greedy", "ismcts ×4 vs greedy")],
}


def times() -> dict[str, str]:
    out = {}
    path = HERE / "times.txt"
    if path.exists():
        for line in path.read_text().splitlines():
            name, _, secs = line.partition(" ")
            out[name] = secs
    return out


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "base"
    took = times()
    print(
        "| game (seats) | match | games | deals | win rate of the first | 95% interval | fair share | verdict | time/decision | wall |"
    )
    print("|---|---|---:|---:|---:|---|---:|---|---:|---:|")
    for game, seats in GAMES:
        for key, label in MATCHES[which]:
            path = HERE / f"{game}-{key}.json"
            if not path.exists():
                continue
            try:
                d = json.loads(path.read_text())
            except json.JSONDecodeError:  # still being written
                continue
            a = d["per_agent"][0]
            fair = 1 / d["players"]
            if a["win_low"] > fair:
                verdict = "above"
            elif a["win_high"] < fair:
                verdict = "below"
            else:
                verdict = "not separated"
            spd = d["seconds_per_decision"][a["label"]] * 1000
            print(
                f"| {game} ({seats}) | {label} | {d['games']} | {d['deals']} | "
                f"{a['win_rate']:.1%} | {a['win_low']:.1%} – {a['win_high']:.1%} | {fair:.0%} | "
                f"{verdict} | {spd:.1f} ms | {took.get(f'{game}-{key}', '?')} |"
            )


if __name__ == "__main__":
    main()
