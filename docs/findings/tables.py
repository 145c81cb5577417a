"""The findings pages' tables, printed as Markdown from the reports' JSON next to this script.

    python docs/findings/tables.py REPORT [REPORT ...]   (e.g. facade facade-expert)

One table per report: a column per variant, a row per figure, each with its 95%
interval (Wilson for rates, normal for means). Event rows are added for every
counter the game reports. The pages quote these tables; rerunning this after
``rerun.sh`` prints the new figures.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def pct(d: dict[str, Any], key: str = "rate", low: str = "low", high: str = "high") -> str:
    if not d or d.get(key) is None:
        return "—"
    return f"{100 * d[key]:.1f}% ({100 * d[low]:.1f}–{100 * d[high]:.1f})"


def num(d: dict[str, Any], key: str = "mean", digits: int = 2) -> str:
    if not d or d.get(key) is None:
        return "—"
    return f"{d[key]:.{digits}f} ({d['low']:.{digits}f}–{d['high']:.{digits}f})"


def variant_rows(v: dict[str, Any]) -> list[tuple[str, str]]:
    """(figure, text) for one variant."""
    seats = " / ".join(f"{100 * s['rate']:.1f}" for s in v["seat_win_rates"])
    rows = [
        ("games", str(v["games"])),
        ("win rate by seat (%)", seats),
        (
            "seat χ² p",
            f"{v['seat_chi_square']['p']:.2g}"
            if (v.get("seat_chi_square") or {}).get("p") is not None
            else "—",
        ),
        ("Balance", f"{v['balance']:.3f}"),
        ("first mover wins", pct(v["first_player"])),
        ("shared wins", pct(v["shared_wins"])),
        ("decisions per game (sd)", f"{v['length']['mean']:.1f} ({v['length']['sd']:.1f})"),
        (
            "mean score (sd)",
            f"{v['scores']['all']['mean']:.2f} ({v['scores']['all']['sd']:.2f})",
        ),
        ("winning margin", num(v["scores"]["margin"])),
    ]
    for agent in v["agent_rates"]:
        if len(v["agent_rates"]) > 1:
            rows.append((f"{agent['agent']} wins", pct(agent)))
            rows.append(
                (
                    f"{agent['agent']} mean score",
                    f"{agent['score']:.2f} ({agent['score_low']:.2f}–{agent['score_high']:.2f})",
                )
            )
    for name, e in sorted(v["events"].items()):
        label = name.replace("_", " ")
        rows.append((f"{label}: mean", num(e, digits=3)))
        rows.append((f"{label}: games with any", pct(e, "rate", "rate_low", "rate_high")))
    t = v["trace"]
    for key, label in (
        ("lead_change", "LeadChange"),
        ("drama_behind", "Drama (winner behind)"),
        ("decisiveness", "Decisiveness"),
    ):
        if t.get(key) and t[key].get("n"):
            rows.append((label, num(t[key], digits=3)))
    return rows


def table(report: str) -> str:
    data = json.loads((HERE / f"{report}.json").read_text(encoding="utf-8"))
    if data.get("kind") == "skill":
        lines = [
            "| rung | games | stronger's win rate (per seat) | equal share | rating gap (Elo) |",
            "|---|---|---|---|---|",
        ]
        for r in data["rungs"]:
            lines.append(
                f"| {r['budget']} vs {r['budget'] // 2} | {r['games']} | {pct(r['strong'])} "
                f"| {100 * r['equal_share']:.1f}% | {r['elo_gap']:+.0f} |"
            )
        return "\n".join(lines)
    variants = data["variants"]
    names = list(variants)
    per = {n: dict(variant_rows(variants[n])) for n in names}
    keys = list(dict.fromkeys(k for n in names for k, _ in variant_rows(variants[n])))
    lines = ["| | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for k in keys:
        lines.append(f"| {k} | " + " | ".join(per[n].get(k, "—") for n in names) + " |")
    return "\n".join(lines)


def main() -> None:
    for report in sys.argv[1:]:
        print(f"### {report}\n")
        print(table(report))
        print()


if __name__ == "__main__":
    main()
