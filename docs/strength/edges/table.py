"""Print the tables of docs/strength.md's issue-20 section from the JSON in this folder.

Each JSON is the arena's own report with every game (``run.py``). The expert's
rate overall and in each seat is its win share (a tie among k winners counts
1/k), with the 95% Wilson interval; the ratio is to the fair share 1/n.

    PYTHONPATH=src python docs/strength/edges/table.py
"""

from __future__ import annotations

import json
from pathlib import Path

from decklab.lab.stats import wilson

HERE = Path(__file__).parent
NAMES = {"corporation": "Corporation", "facade": "Façade", "notorious": "Notorious"}


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def expert_rates(data: dict) -> tuple[list[float], list[int]]:
    """The expert's summed win share and game count in each seat."""
    n = data["players"]
    wins, games = [0.0] * n, [0] * n
    for g in data["results"]:
        seat = g["seats"].index("expert")
        wins[seat] += g["shares"][seat]
        games[seat] += 1
    return wins, games


def main() -> None:
    print("| game | players | games | expert wins | 95% interval | fair share | ratio | wall |")
    print("|---|---|---|---|---|---|---|---|")
    seat_rows = []
    for game in NAMES:
        files = sorted(HERE.glob(f"{game}-*.json"), key=lambda p: int(p.stem.split("-")[-1]))
        for path in files:
            data = json.loads(path.read_text())
            n = data["players"]
            wins, games = expert_rates(data)
            w, g = sum(wins), sum(games)
            lo, hi = wilson(w, g)
            fair = 1 / n
            print(
                f"| {NAMES[game]} | {n} | {g} | {pct(w / g)}% | {pct(lo)}–{pct(hi)}% "
                f"| {pct(fair)}% | {w / g / fair:.2f}× (interval {lo / fair:.2f}–{hi / fair:.2f}) "
                f"| {data['wall_seconds']:.0f} s |"
            )
            if game == "corporation":
                cells = []
                for s in range(n):
                    slo, shi = wilson(wins[s], games[s])
                    mark = "met" if slo >= 2 * fair else ("not met" if shi < 2 * fair else "?")
                    cells.append(
                        f"p{s + 1} {pct(wins[s] / games[s])} ({pct(slo)}–{pct(shi)}) {mark}"
                    )
                seat_rows.append(
                    f"| {n} | {games[0]} | {pct(2 * fair)}% | " + "; ".join(cells) + " |"
                )
    print()
    print("| players | games a seat | 2× fair | expert per seat, % (95% interval), target |")
    print("|---|---|---|---|")
    print("\n".join(seat_rows))


if __name__ == "__main__":
    main()
