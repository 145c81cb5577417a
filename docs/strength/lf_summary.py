"""Win rates, 95% Wilson intervals and paired differences from ``lf_spec.py``'s lines.

    python docs/strength/lf_summary.py FILE [FILE ...]

Lines of one deal from several files are joined (two specs run in two processes on
the same deals); only deals every spec finished are counted. The first spec is the
reference of the paired differences (per deal, so the luck of the deal cancels).
"""

from __future__ import annotations

import json
import math
import sys

Z = 1.96


def wilson(wins: float, games: int) -> tuple[float, float]:
    p = wins / games
    d = 1 + Z * Z / games
    centre = (p + Z * Z / (2 * games)) / d
    half = Z * math.sqrt(p * (1 - p) / games + Z * Z / (4 * games * games)) / d
    return centre - half, centre + half


def paired(values: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width of per-deal values."""
    mean = math.fsum(values) / len(values)
    var = math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, Z * math.sqrt(var / len(values))


def main() -> None:
    deals: dict[int, dict[str, float]] = {}
    names: list[str] = []
    for path in sys.argv[1:]:
        with open(path) as f:
            for line in f:
                row = json.loads(line)
                deals.setdefault(row["deal"], {}).update(row)
                names += [k for k in row if k != "deal" and "_" not in k and k not in names]
    rows = [r for r in deals.values() if all(n in r for n in names)]
    games = 2 * len(rows)
    for name in names:
        wins = math.fsum(r[name] for r in rows)
        low, high = wilson(wins, games)
        ms = math.fsum(r[name + "_ms"] for r in rows) / len(rows)
        print(
            f"{name}: {games} games ({len(rows)} deals), {100 * wins / games:.1f}% "
            f"({100 * low:.1f}-{100 * high:.1f}), {ms:.1f} ms CPU a decision"
        )
    for name in names[1:]:
        ref = names[0]
        win, wh = paired([(r[name] - r[ref]) / 2 for r in rows])
        mg, mh = paired([(r[name + "_mg"] - r[ref + "_mg"]) / 2 for r in rows])
        print(
            f"{name} - {ref}, paired per deal: {100 * win:+.1f} points of win rate (± {100 * wh:.1f}), "
            f"{mg:+.2f} score margin a game (± {mh:.2f})"
        )


if __name__ == "__main__":
    main()
