"""The budget curves of docs/strength.md as a plot: how the expert's strength grows with
its budget, and what each step costs.

    python docs/strength/budget_plot.py        (writes docs/strength/budget.png)

The points are the recorded ``budget-*`` runs of ``build.py`` (the table under *Budget
curves*), so the plot and the table cannot disagree; a run not made yet is left out
of its curve. Three panels: the win rate against greedy at each iteration count with
its 95% Wilson interval and the fair share dashed; the run's CPU seconds a game (CPU,
not wall time: the machine is shared, and wall time says how busy it was), the runs
made on the pure-Python build marked apart from the compiled ones; and the Cabin's mean squid points at each count of sampled deals
(fewer is better) with its 95% interval.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import build  # noqa: E402  (the list of runs and their records, next to this script)

PNG = HERE / "budget.png"
Point = tuple[int, float, float, float]
"""(budget, value, low, high)."""


def _budget(run: build.Run) -> int:
    return int(run.id.rsplit("-", 1)[1])


def curves(runs_dir: Path = build.RUNS) -> dict[str, dict[str, Any]]:
    """Per game: its label, its points (budget, value, low, high), the fair share (None
    for the Cabin, whose value is mean squid points) and (budget, CPU seconds a game, made
    on the pure-Python build) of each run."""
    out: dict[str, dict[str, Any]] = {}
    for run in build.runs():
        if run.section != "budget" or build.state(run, runs_dir) != "done":
            continue
        record = build.load(run, runs_dir)
        assert record is not None
        result = record["result"]
        first = result["per_agent"][0]
        solo = run.seats == 1
        entry = out.setdefault(
            run.game,
            {
                "label": build.TITLES[run.game] + ("" if solo else f" ({run.seats})"),
                "fair": None if solo else 1.0 / run.seats,
                "points": [],
                "cpu": [],
            },
        )
        keys = (
            ("mean_score", "score_low", "score_high")
            if solo
            else ("win_rate", "win_low", "win_high")
        )
        entry["points"].append((_budget(run), *(float(first[k]) for k in keys)))
        cpu = record.get("cpu_s")
        if cpu:
            pure = record.get("machine", {}).get("build") == "pure"
            entry["cpu"].append((_budget(run), float(cpu) / int(result["games"]), pure))
    for entry in out.values():
        entry["points"].sort()
        entry["cpu"].sort()
    return out


def draw(path: Path = PNG, runs_dir: Path = build.RUNS) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = curves(runs_dir)
    rate_ticks = sorted({p[0] for e in data.values() if e["fair"] is not None for p in e["points"]})
    cabin_ticks = sorted({p[0] for e in data.values() if e["fair"] is None for p in e["points"]})
    fig, (rate_ax, cpu_ax, cabin_ax) = plt.subplots(1, 3, figsize=(14, 4.2))
    for entry in data.values():
        if entry["fair"] is None:
            continue
        xs = [p[0] for p in entry["points"]]
        ys = [100 * p[1] for p in entry["points"]]
        err = [
            [100 * (p[1] - p[2]) for p in entry["points"]],
            [100 * (p[3] - p[1]) for p in entry["points"]],
        ]
        line = rate_ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=entry["label"])
        color = line[0].get_color()
        rate_ax.axhline(100 * entry["fair"], color=color, ls="--", lw=0.8)
        for pure, style in ((False, "o-"), (True, "x")):
            points = [(x, y) for x, y, p in entry["cpu"] if p == pure]
            if points:
                xs, cpu = zip(*points, strict=True)
                cpu_ax.plot(xs, cpu, style, color=color)
    rate_ax.set(xlabel="iterations per decision", ylabel="win rate vs greedy (%)")
    rate_ax.set_title("expert:iters=N against greedy (dashed: fair share)", fontsize=10)
    rate_ax.legend(fontsize=8)
    cpu_ax.set(yscale="log", xlabel="iterations per decision")
    cpu_ax.set(ylabel="CPU seconds per game (the whole table)")
    cpu_ax.set_title("what the budget costs (colours as on the left)", fontsize=10)
    cpu_ax.plot([], [], "o-", color="gray", label="compiled build")
    cpu_ax.plot([], [], "x", color="gray", label="pure Python (not comparable)")
    cpu_ax.legend(fontsize=8)
    cabin = data.get("cabin")
    if cabin is not None:
        xs = [p[0] for p in cabin["points"]]
        ys = [p[1] for p in cabin["points"]]
        err = [[p[1] - p[2] for p in cabin["points"]], [p[3] - p[1] for p in cabin["points"]]]
        cabin_ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, color="tab:purple")
    cabin_ax.set(xlabel="sampled deals per decision", ylabel="mean squid points")
    cabin_ax.set_title("The Cabin: expert:samples=N (fewer is better)", fontsize=10)
    for ax, ticks in ((rate_ax, rate_ticks), (cpu_ax, rate_ticks), (cabin_ax, cabin_ticks)):
        ax.set_xscale("log", base=2)
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return path


if __name__ == "__main__":
    print(draw())
