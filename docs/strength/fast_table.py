"""Print the tables of docs/strength.md's "The fast bot" from docs/strength/fast/*.json.

python docs/strength/fast_table.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent / "fast"


def walls() -> dict[str, str]:
    found: dict[str, str] = {}
    times = HERE / "times.txt"
    if times.exists():
        for line in times.read_text().splitlines():
            m = re.match(r"(\S+) (\d+)s", line)
            if m:
                found[m.group(1)] = f"{m.group(2)}s"
    return found


MATCHES = (
    "facade-fast-vs-greedy",
    "lonely-face-fast-vs-greedy",
    "notorious-fast-vs-greedy",
    "corporation-fast-vs-greedy",
    "facade-fast-vs-expert",
    "lonely-face-fast-vs-expert",
    "notorious-expert-vs-fast",
    "corporation-expert-vs-fast",
)


def matches() -> None:
    wall = walls()
    print(
        "| game (seats) | match | games | deals | win rate of the first | 95% interval |"
        " fair share | verdict | ms/decision (first, other) | wall |"
    )
    print("|---|---|---:|---:|---:|---|---:|---|---:|---:|")
    for name in MATCHES:
        path = HERE / f"{name}.json"
        if not path.exists() or not path.stat().st_size:
            continue  # not run, or still running
        d = json.loads(path.read_text())
        a = d["per_agent"][0]
        first, other = d["agents"][0], d["agents"][1]
        fair = 1 / d["players"]
        verdict = (
            "above" if a["win_low"] > fair else "below" if a["win_high"] < fair else "not separated"
        )
        spd = d["seconds_per_decision"]
        print(
            f"| {d['game']} ({d['players']}) | {first} vs {other} | {a['games']} | {d['deals']} "
            f"| {a['win_rate']:.1%} | {a['win_low']:.1%} – {a['win_high']:.1%} "
            f"| {fair:.0%} | {verdict} | {1000 * spd[first]:.1f}, {1000 * spd[other]:.1f} "
            f"| {wall.get(name, '?')} |"
        )


def timing() -> None:
    path = HERE / "timing.json"
    if not path.exists() or not path.stat().st_size:
        return
    print()
    print("| game | positions | fast ms CPU | expert ms CPU | greedy ms CPU | expert ÷ fast |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in json.loads(path.read_text()):
        print(
            f"| {row['game']} | {row['positions']} | {row['fast_ms']:.2f} | {row['expert_ms']:.1f}"
            f" | {row['greedy_ms']:.2f} | ×{row['ratio']:.1f} |"
        )


def cabin() -> None:
    path = HERE / "cabin-paired.json"
    if not path.exists() or not path.stat().st_size:
        return
    d = json.loads(path.read_text())
    print()
    print(f"The Cabin, {d['deals']} deals, each played by all three (lower is better):")
    print()
    print("| agent | mean squid points | minus fast's, per deal (95% interval) |")
    print("|---|---:|---|")
    for spec, mean in d["mean"].items():
        diff = d["vs_fast"].get(spec)
        cell = (
            "—"
            if diff is None
            else f"{diff['mean']:+.2f} ({diff['low']:+.2f} to {diff['high']:+.2f})"
        )
        print(f"| {spec} | {mean:.2f} | {cell} |")


if __name__ == "__main__":
    matches()
    timing()
    cabin()
