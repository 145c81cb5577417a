"""The Notorious page's rows tested against a fair share, Holm-corrected across the page.

    python docs/findings/notorious_fair.py LABEL=REPORT.json [LABEL=REPORT.json ...] [--out FILE.json]

Each REPORT.json is ``decklab report``'s output for one of the page's sweeps (one variant
per table size; the page has greedy's and the expert's), LABEL the name its rows get. Each row the page compares with "fair 1/n" is tested here: the counter's mean per
match (matches are independent; the games of one match are not, so the test is on the
match, not the game) against the value a seat picked at random would give, with a normal
test whose standard error comes from the report's 95% interval. The seat χ² test of each
table size joins the family. Why a script of its own: the page makes about 24 such tests,
and a row should be called a finding only if it survives Holm's correction across all of
them, not one at a time.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from decklab.lab.paired import ALPHA, holm

Z95 = 1.959963984540054
GAMES = 5  # games in a match (the default)

# (the row's words, the counter, the games it is counted over; 0: a ratio to the mean seat)
ROWS: list[tuple[str, str, int]] = [
    ("the first lead-off wins the match", "first_lead_off_won", 1),
    ("a game's lead-off is disqualified again", "lead_off_disqualified", GAMES),
    ("a game's lead-off gains the most points", "lead_off_top_gain", GAMES),
    ("the lead-off's points against an average seat's", "lead_off_points", 0),
    ("the match leader is disqualified (games 2–5)", "leader_disqualified", GAMES - 1),
    ("the match winner is disqualified, per game", "winner_disqualified_games", GAMES),
    ("the match winner had the best score that counted", "winner_best_counted_games", GAMES),
]


def _p_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def tests(reports: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Every row of every table size of every report as (estimate, fair, interval, raw p),
    with Holm's correction across all of them."""
    out: list[dict[str, Any]] = []
    for label, report in reports.items():
        out += _rows(label, report)
    adjusted = holm([t["p"] for t in out])
    for t, h in zip(out, adjusted, strict=True):
        t["holm_p"] = h
        t["verdict"] = "differs from fair" if h <= ALPHA else "no measurable difference"
        t["tests"] = len(out)
    return out


def _rows(label: str, report: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for variant, v in report["variants"].items():
        name = f"{label}, {variant}"
        n = int(v["players"])
        ev = v["events"]
        chi = v["seat_chi_square"]
        out.append(
            {"table": name, "row": "seat win rates equal (χ²)", "estimate": None,
             "fair": None, "low": None, "high": None, "p": chi["p"]}
        )  # fmt: skip
        for words, counter, games in ROWS:
            e = ev[counter]
            se = (e["high"] - e["low"]) / (2 * Z95)
            if counter == "lead_off_points":  # a ratio to the mean seat's points
                per_seat = ev["points"]["mean"] / n
                est, low, high = e["mean"] / per_seat, e["low"] / per_seat, e["high"] / per_seat
                fair, se = 1.0, se / per_seat
            else:
                est, low, high = e["mean"] / games, e["low"] / games, e["high"] / games
                fair, se = 1 / n, se / games
            p = _p_two_sided((est - fair) / se) if se > 0 else (0.0 if est != fair else 1.0)
            out.append(
                {"table": name, "row": words, "estimate": est, "fair": fair, "low": low,
                 "high": high, "p": p}
            )  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", metavar="LABEL=REPORT.json")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    reports = {}
    for arg in args.reports:
        label, _, path = arg.partition("=")
        reports[label] = json.loads(Path(path).read_text(encoding="utf-8"))
    rows = tests(reports)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    w = sys.stdout.write
    w(f"Holm's correction across {len(rows)} tests.\n\n")
    w(
        "| row | table | estimate (95%) | fair | p | Holm p | verdict |\n|---|---|---|---|---|---|---|\n"
    )
    for t in rows:
        pct = t["row"] != "the lead-off's points against an average seat's"
        if t["estimate"] is None:
            est, fair = "—", "equal"
        elif pct:
            est = f"{100 * t['estimate']:.1f}% ({100 * t['low']:.1f}–{100 * t['high']:.1f})"
            fair = f"{100 * t['fair']:.0f}%"
        else:
            est = f"{t['estimate']:.3f} ({t['low']:.3f}–{t['high']:.3f})"
            fair = "1"
        w(
            f"| {t['row']} | {t['table']} | {est} | {fair} | {t['p']:.2g} | "
            f"{t['holm_p']:.2g} | {t['verdict']} |\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
