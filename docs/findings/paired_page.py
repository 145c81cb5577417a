"""A findings page's paired comparisons, Holm-corrected across the whole page.

    python docs/findings/paired_page.py --pair LABEL A B [--pair ...] [--summary FOLDER ...]
        [--show METRIC,...] --out FILE.json

Each ``--pair`` is two simulation folders of one game played from the same seed (a
sweep's ``cell-…`` folders are such), compared as ``decklab compare A B`` does: every
metric's difference B − A, paired over the same deals, with its t-interval, bootstrap
interval and smallest detectable difference (``decklab.lab.compare``). Why this script
and not one ``decklab report`` per sweep: a page draws its headlines from several
sweeps (one per table size, or one per agent), and Holm's correction must span every
test the page makes, not each report's own. The family is every metric of every pair, or with ``--family`` the
metrics named (the page's questions; the rest is then descriptive, and marked so).

``--summary`` adds a folder's solo-score summary (mean and interval, the 10/25/50/75/90th
percentiles, the perfect-game rate with its Wilson interval): what a player of a solo game
can aim for. The JSON holds every number; the printed Markdown tables the ``--show``
metrics (all when not given).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from decklab.lab import compare, metrics, paired
from decklab.lab.stats import wilson


def _summary(label: str, folder: Path) -> dict[str, Any]:
    """A solo run's score distribution: mean (normal interval), percentiles, perfect games,
    and the count of each score (for a plot of the distribution)."""
    rows = metrics.load(folder)
    scores = [s[0] for s in rows.scores]
    perfect = sum(1 for s in rows.shares if s[0] > 0)
    n = len(scores)
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.stdev(scores) / math.sqrt(n)
    low, high = wilson(perfect, n)
    pct = np.percentile(scores, [10, 25, 50, 75, 90]).tolist()
    return {
        "label": label,
        "folder": str(folder),
        "games": n,
        "mean": mean,
        "mean_low": mean - half,
        "mean_high": mean + half,
        "percentiles": dict(zip(("p10", "p25", "p50", "p75", "p90"), pct, strict=True)),
        "perfect": perfect,
        "perfect_low": low,
        "perfect_high": high,
        "counts": {f"{k:g}": v for k, v in sorted(Counter(scores).items())},
    }


def _p(p: float | None) -> str:
    """A p-value as text; below double precision's reach it is written as such."""
    if p is None:
        return "—"
    return "< 1e-15" if p < 1e-15 else f"{p:.2g}"


def _fmt(x: float, signed: bool = False) -> str:
    return f"{x:+.3f}" if signed else f"{x:.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pair", nargs=3, action="append", default=[], metavar=("LABEL", "A", "B"))
    parser.add_argument(
        "--summary", nargs=2, action="append", default=[], metavar=("LABEL", "FOLDER")
    )
    parser.add_argument("--show", default="", help="metrics to print, comma-separated")
    parser.add_argument(
        "--family",
        default="",
        help="the metrics whose tests make the page's Holm family, comma-separated (default: "
        "all); the others are reported as descriptive, untested",
    )
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    for label, a, b in args.pair:
        diffs = compare.compare_rows(metrics.load(Path(a)), metrics.load(Path(b)))
        rows += [{"comparison": label, "a": a, "b": b, **d.to_json()} for d in diffs]
    family = [m for m in args.family.split(",") if m]
    tested = [r for r in rows if not family or r["metric"] in family]
    decided_tests = iter(compare.decide(tested))
    decided = [
        next(decided_tests)
        if not family or r["metric"] in family
        else {**r, "holm_p": None, "verdict": "descriptive (not in the Holm family)"}
        for r in rows
    ]
    for r in decided:
        r["tests"] = len(tested)
    data: dict[str, Any] = {
        "alpha": paired.ALPHA,
        "min_deals": paired.MIN_DEALS,
        "holm_family": ", ".join(family) or "every metric of every comparison on the page",
        "differences": decided,
        "summaries": [_summary(label, Path(f)) for label, f in args.summary],
    }
    args.out.write_text(json.dumps(metrics.finite(data), indent=1) + "\n", encoding="utf-8")
    show = [m for m in args.show.split(",") if m]
    out = sys.stdout
    if decided:
        out.write(
            f"Holm's correction across {decided[0]['tests']} tests ("
            f"{data['holm_family']}).\n\n| comparison | metric | deals | A | B | B − A (95% t) | "
            "bootstrap 95% | detectable | Holm p | verdict |\n|---|---|---|---|---|---|---|---|---|---|\n"
        )
    for r in decided:
        if show and r["metric"] not in show:
            continue
        out.write(
            f"| {r['comparison']} | {r['metric']} | {r['deals']} | {_fmt(r['a_mean'])} | "
            f"{_fmt(r['b_mean'])} | {_fmt(r['difference'], True)} ({_fmt(r['t_low'], True)} to "
            f"{_fmt(r['t_high'], True)}) | {_fmt(r['bootstrap_low'], True)} to "
            f"{_fmt(r['bootstrap_high'], True)} | ±{r['mde']:.3f} | {_p(r['holm_p'])} | "
            f"{r['verdict']} |\n"
        )
    if data["summaries"]:
        out.write(
            "\n| run | games | mean (95%) | p10 | p25 | p50 | p75 | p90 | perfect games (95%) |\n"
            "|---|---|---|---|---|---|---|---|---|\n"
        )
    for s in data["summaries"]:
        p = s["percentiles"]
        out.write(
            f"| {s['label']} | {s['games']} | {s['mean']:.2f} ({s['mean_low']:.2f}–"
            f"{s['mean_high']:.2f}) | {p['p10']:g} | {p['p25']:g} | {p['p50']:g} | {p['p75']:g} "
            f"| {p['p90']:g} | {s['perfect']}/{s['games']} ({100 * s['perfect_low']:.1f}–"
            f"{100 * s['perfect_high']:.1f}%) |\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
