"""``decklab report DIR``: one self-contained HTML page and the numbers as JSON.

DIR is a simulation folder, a sweep folder (every cell side by side) or a tune
folder. The page has no external reference at all (no script, font or style
sheet from the network): plots are matplotlib PNGs embedded as base64 data
URIs, styles are inline, so the file can be mailed or archived as it is.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import decklab
from decklab.engine.errors import DecklabError
from decklab.engine.registry import get_game
from decklab.lab import metrics
from decklab.lab.runner import MANIFEST, read_plan
from decklab.lab.sweep import SWEEP, read_sweep

TUNE = "tune.json"


class ReportError(DecklabError):
    """A folder that holds nothing to report."""


def _pct(x: float | None) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _interval(d: dict[str, Any], low: str = "low", high: str = "high", pct: bool = True) -> str:
    f = _pct if pct else _num
    return f"{f(d.get(low))} – {f(d.get(high))}"


# ------------------------------------------------------------------ plots
def _png(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def _figure(width: float = 6.0, height: float = 3.2) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height))
    return fig, ax


def _bars(
    labels: Sequence[str],
    series: dict[str, list[dict[str, Any]]],
    title: str,
    ylabel: str,
    reference: float | None = None,
) -> str:
    """Grouped bars with 95% interval whiskers: one group per label, one bar per series."""
    fig, ax = _figure(max(6.0, 0.5 * len(labels) * max(1, len(series))), 3.4)
    width = 0.8 / max(1, len(series))
    for k, (name, values) in enumerate(series.items()):
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(labels))]
        ys = [v.get("rate") or 0.0 for v in values]
        lows = [max(0.0, y - (v.get("low") or y)) for y, v in zip(ys, values, strict=True)]
        highs = [max(0.0, (v.get("high") or y) - y) for y, v in zip(ys, values, strict=True)]
        ax.bar(xs, ys, width, yerr=[lows, highs], capsize=3, label=name)
    if reference is not None:
        ax.axhline(reference, color="grey", linestyle="--", linewidth=1)
    tilt = len(labels) > 6 or max((len(x) for x in labels), default=0) > 10
    ax.set_xticks(
        range(len(labels)), labels, rotation=30 if tilt else 0, ha="right" if tilt else "center"
    )
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(fontsize="small")
    return _png(fig)


def _histograms(hists: dict[str, dict[str, list[float]]], title: str, xlabel: str) -> str:
    fig, ax = _figure()
    for name, h in hists.items():
        edges, counts = h.get("edges") or [], h.get("counts") or []
        if not counts:
            continue
        total = sum(counts) or 1.0
        ax.stairs([c / total for c in counts], edges, label=name)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games")
    ax.set_title(title)
    if len(hists) > 1:
        ax.legend(fontsize="small")
    return _png(fig)


# ------------------------------------------------------------------ tables
def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    out = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


STYLE = """
body{font-family:system-ui,sans-serif;max-width:72em;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;display:block;overflow-x:auto;max-width:100%}td,th{border:1px solid #ccc;padding:.2em .6em;
text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}code{background:#f3f3f3;padding:0 .2em}
.note{color:#555;font-size:.9em}
"""


def _page(title: str, body: list[str]) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{html.escape(title)}</h1>\n"
        + "\n".join(body)
        + f'<p class="note">decklab {html.escape(decklab.__version__)}; '
        "metrics as defined in docs/metrics.md; intervals are 95%.</p></body></html>\n"
    )


# --------------------------------------------------------------- variants
def _variant_numbers(folder: Path) -> dict[str, Any]:
    plan = read_plan(folder)
    rows = metrics.load(folder)
    summary = metrics.summarize(rows, seed=plan.seed)
    summary["plan"] = plan.to_json()
    return summary


def paired_numbers(folders: dict[str, Path], seed: int = 0) -> list[dict[str, Any]]:
    """Every variant against the first, metric by metric, paired over the same deals,
    with Holm's correction across all of the page's tests (see lab/compare.py)."""
    from decklab.lab.compare import compare_rows, decide

    names = list(folders)
    if len(names) < 2:
        return []
    base = metrics.load(folders[names[0]])
    found: list[dict[str, Any]] = []
    for name in names[1:]:
        for d in compare_rows(base, metrics.load(folders[name]), seed):
            found.append({"baseline": names[0], "variant": name, **d.to_json()})
    return [metrics.finite(r) for r in decide(found)]


def paired_table(rows: Sequence[dict[str, Any]], with_variant: bool = True) -> str:
    """The paired differences as an HTML table; findings are marked ✔ (Holm, min. deals)."""
    head = [
        "metric",
        *(["variant"] if with_variant else []),
        "baseline",
        "variant mean",
        "difference",
        "95% paired t",
        "95% bootstrap",
        "detectable (80%)",
        "p",
        "Holm p",
        "deals",
        "verdict",
    ]
    body = []
    for r in rows:
        mark = "✔ " if r["verdict"] == "finding" else ""
        body.append(
            [
                r["metric"],
                *([r["variant"]] if with_variant else []),
                _num(r["a_mean"], 3),
                _num(r["b_mean"], 3),
                _num(r["difference"], 3),
                _interval(r, "t_low", "t_high", pct=False),
                _interval(r, "bootstrap_low", "bootstrap_high", pct=False),
                _num(r["mde"], 3),
                _num(r["p"], 4),
                _num(r["holm_p"], 4),
                str(r["deals"]),
                mark + r["verdict"],
            ]
        )
    return _table(head, body)


def _paired_note(rows: Sequence[dict[str, Any]]) -> str:
    from decklab.lab import paired

    tests = rows[0]["tests"] if rows else 0
    return (
        '<p class="note">Differences are variant − baseline, per deal (the mean over its seat '
        "rotations), paired over the deals both played. p is the paired t-test's; "
        f"<b>Holm p</b> is corrected across all {tests} tests of this page (Holm's step-down). "
        f"A <b>finding</b> (✔) needs a Holm p ≤ {paired.ALPHA} and at least "
        f"{paired.MIN_DEALS} deals. <i>Detectable</i> is the smallest difference this run "
        "would find 80% of the time (two-sided α = 0.05): a “no measurable difference” rules "
        "out only differences larger than it.</p>"
    )


def _overview_rows(variants: dict[str, dict[str, Any]]) -> list[list[str]]:
    """One line per metric, one column per variant."""
    names = list(variants)

    def line(label: str, get: Any) -> list[str]:
        return [label, *(get(variants[n]) for n in names)]

    out = [
        line("games", lambda v: str(v["games"])),
        line("players", lambda v: str(v["players"])),
        line("balance", lambda v: _num(v["balance"], 3)),
        line("seat χ² p-value", lambda v: _num(v["seat_chi_square"]["p"], 3)),
        line(
            "first player wins",
            lambda v: f"{_pct(v['first_player']['rate'])} ({_interval(v['first_player'])})",
        ),
        line("shared wins", lambda v: _pct(v["shared_wins"]["rate"])),
        line(
            "length (decisions)",
            lambda v: f"{_num(v['length']['mean'], 1)} ± sd {_num(v['length']['sd'], 1)}",
        ),
        line(
            "winning margin",
            lambda v: (
                f"{_num(v['scores']['margin']['mean'])} ({_interval(v['scores']['margin'], pct=False)})"
            ),
        ),
    ]
    if all("trace" in v for v in variants.values()):
        for key, label in (
            ("lead_change", "LeadChange"),
            ("drama_behind", "Drama (winner behind)"),
            ("decisiveness", "Decisiveness"),
        ):
            out.append(line(label, lambda v, key=key: _num(v["trace"][key]["mean"], 3)))
    events = sorted({e for v in variants.values() for e in v["events"]})
    for e in events:
        out.append(
            line(
                f"{e.replace('_', ' ')} (mean / share of games)",
                lambda v, e=e: (
                    f"{_num(v['events'][e]['mean'])} / {_pct(v['events'][e]['rate'])}"
                    if e in v["events"]
                    else "—"
                ),
            )
        )
    agents = sorted({a["agent"] for v in variants.values() for a in v["agent_rates"]})
    for a in agents:
        out.append(
            line(
                f"{a} wins",
                lambda v, a=a: next(
                    (
                        f"{_pct(r['rate'])} ({_interval(r)})"
                        for r in v["agent_rates"]
                        if r["agent"] == a
                    ),
                    "—",
                ),
            )
        )
    return out


def _solo_overview_rows(variants: dict[str, dict[str, Any]], unit: str) -> list[list[str]]:
    """A solo game's overview leads with what a solo player aims at: the score, its
    percentiles and the perfect games (a solo game's only win); seats' win shares,
    balance and margins mean nothing with one seat."""
    names = list(variants)

    def line(label: str, get: Any) -> list[str]:
        return [label, *(get(variants[n]) for n in names)]

    def seat(v: dict[str, Any]) -> dict[str, Any]:
        return dict(v["scores"]["per_seat"][0])

    out = [
        line(
            f"mean {unit}",
            lambda v: f"{_num(seat(v)['mean'])} ({_interval(seat(v), pct=False)})",
        ),
        line(
            "percentiles 10 / 25 / 50 / 75 / 90",
            lambda v: " / ".join(
                _num(seat(v).get(q), 1) for q in ("q10", "q25", "median", "q75", "q90")
            ),
        ),
        line(
            "perfect games",
            lambda v: (
                f"{_pct(v['seat_win_rates'][0]['rate'])} ({_interval(v['seat_win_rates'][0])})"
            ),
        ),
        line("games", lambda v: str(v["games"])),
        line(
            "length (decisions)",
            lambda v: f"{_num(v['length']['mean'], 1)} ± sd {_num(v['length']['sd'], 1)}",
        ),
    ]
    events = sorted({e for v in variants.values() for e in v["events"]})
    for e in events:
        out.append(
            line(
                f"{e.replace('_', ' ')} (mean / share of games)",
                lambda v, e=e: (
                    f"{_num(v['events'][e]['mean'])} / {_pct(v['events'][e]['rate'])}"
                    if e in v["events"]
                    else "—"
                ),
            )
        )
    agents = sorted({a["agent"] for v in variants.values() for a in v["agent_rates"]})
    if len(agents) > 1:
        for a in agents:
            out.append(
                line(
                    f"{a}: mean {unit} / perfect games",
                    lambda v, a=a: next(
                        (
                            f"{_num(r['score'])} / {_pct(r['rate'])}"
                            for r in v["agent_rates"]
                            if r["agent"] == a
                        ),
                        "—",
                    ),
                )
            )
    return out


def _variant_section(name: str, v: dict[str, Any], unit: str) -> list[str]:
    body = [f"<h2>{html.escape(name)}</h2>"]
    plan = v["plan"]
    body.append(
        f"<p>{html.escape(plan['game'])}, {plan['players']} seats, seed {plan['seed']}, "
        f"{v['games']} games; options <code>{html.escape(json.dumps(plan['resolved']))}</code>; "
        f"agents <code>{html.escape(', '.join(plan['agents']))}</code>.</p>"
    )
    if v["players"] == 1:
        body.append(
            _table(
                ["agent", f"mean {unit}", "95% interval", "perfect games", "95% interval"],
                [
                    [
                        r["agent"],
                        _num(r["score"]),
                        _interval(r, "score_low", "score_high", False),
                        _pct(r["rate"]),
                        _interval(r),
                    ]
                    for r in v["agent_rates"]
                ],
            )
        )
        return body
    body.append(
        _table(
            ["seat", "win rate", "95% interval", f"mean {unit}", "sd"],
            [
                [f"p{s + 1}", _pct(r["rate"]), _interval(r), _num(sc["mean"]), _num(sc["sd"])]
                for s, (r, sc) in enumerate(
                    zip(v["seat_win_rates"], v["scores"]["per_seat"], strict=True)
                )
            ],
        )
    )
    body.append(
        _table(
            ["agent", "win rate", "95% interval", f"mean {unit}", "rating (Elo)", "95% interval"],
            [
                [
                    r["agent"],
                    _pct(r["rate"]),
                    _interval(r),
                    _num(r["score"]),
                    *next(
                        (
                            [_num(x["elo"], 0), _interval(x, pct=False)]
                            for x in v["ratings"]
                            if x["agent"] == r["agent"]
                        ),
                        ["—", "—"],
                    ),
                ]
                for r in v["agent_rates"]
            ],
        )
    )
    return body


def build(folder: Path) -> tuple[str, dict[str, Any]]:
    """The report of a folder: (HTML page, numbers)."""
    from decklab.lab.skill import SKILL

    if (folder / SKILL).exists():
        from decklab.lab.skill import trace_numbers

        data = trace_numbers(folder)
        return _skill_page(data), data
    if (folder / TUNE).exists():
        from decklab.lab.tune import report_numbers

        data = report_numbers(folder)
        return _tune_page(data), data
    cell_folders: dict[str, Path] = {}
    if (folder / SWEEP).exists():
        cells = read_sweep(folder)
        variants = {}
        for cell in cells:
            if (folder / cell.folder / MANIFEST).exists():
                variants[cell.label()] = _variant_numbers(folder / cell.folder)
                cell_folders[cell.label()] = folder / cell.folder
        title_game = json.loads((folder / SWEEP).read_text(encoding="utf-8"))["game"]
    elif (folder / MANIFEST).exists():
        plan = read_plan(folder)
        variants = {"simulation": _variant_numbers(folder)}
        title_game = plan.game
    else:
        raise ReportError(f"{folder} holds no decklab simulation, sweep or tune")
    if not variants:
        raise ReportError(f"{folder} has no finished cell yet")
    info = get_game(title_game).info
    names = list(variants)
    solo = all(v["players"] == 1 for v in variants.values())
    body = [
        "<h2>Overview</h2>",
        _table(
            ["metric", *names],
            _solo_overview_rows(variants, info.score_unit) if solo else _overview_rows(variants),
        ),
    ]
    paired_rows = paired_numbers(cell_folders) if len(cell_folders) > 1 else []
    if paired_rows:
        body.append(f"<h2>Paired differences against {html.escape(names[0])}</h2>")
        body.append(_paired_note(paired_rows))
        body.append(paired_table(paired_rows))
    if solo:
        body.append(
            _bars(
                names,
                {
                    f"mean {info.score_unit}": [
                        {
                            "rate": v["scores"]["per_seat"][0]["mean"],
                            "low": v["scores"]["per_seat"][0]["low"],
                            "high": v["scores"]["per_seat"][0]["high"],
                        }
                        for v in variants.values()
                    ]
                },
                f"Mean {info.score_unit} by variant (95% intervals)",
                info.score_unit,
            )
        )
    else:
        seats = max(v["players"] for v in variants.values())
        labels = [f"p{s + 1}" for s in range(seats)]
        body.append(
            _bars(
                labels,
                {
                    n: v["seat_win_rates"] + [{}] * (seats - len(v["seat_win_rates"]))
                    for n, v in variants.items()
                },
                "Win rate by seat (95% Wilson intervals)",
                "win rate",
            )
        )
    agents = sorted({a["agent"] for v in variants.values() for a in v["agent_rates"]})
    body.append(
        _bars(
            names,
            {
                a: [
                    next((r for r in v["agent_rates"] if r["agent"] == a), {})
                    for v in variants.values()
                ]
                for a in agents
            },
            "Perfect-game rate by agent and variant" if solo else "Win rate by agent and variant",
            "perfect games" if solo else "win rate",
        )
    )
    body.append(
        _histograms(
            {n: v["length"]["histogram"] for n, v in variants.items()},
            "Game length",
            "decisions per game",
        )
    )
    body.append(
        _histograms(
            {n: v["scores"]["histogram"] for n, v in variants.items()},
            f"Scores ({info.score_unit})",
            info.score_unit,
        )
    )
    events = sorted({e for v in variants.values() for e in v["events"]})
    if events:
        body.append(
            _bars(
                [e.replace("_", " ") for e in events],
                {
                    n: [
                        {
                            "rate": v["events"].get(e, {}).get("rate"),
                            "low": v["events"].get(e, {}).get("rate_low"),
                            "high": v["events"].get(e, {}).get("rate_high"),
                        }
                        for e in events
                    ]
                    for n, v in variants.items()
                },
                "Share of games in which each event happened",
                "share of games",
            )
        )
    for n, v in variants.items():
        body.extend(_variant_section(n, v, info.score_unit))
    numbers = {"game": info.name, "variants": variants, "paired": paired_rows}
    return _page(f"{info.title}: design lab report", body), metrics.finite(numbers)


def _tune_page(data: dict[str, Any]) -> str:
    head = ["rank", "options", "score", "95% interval", *data["goal_names"], "games"]
    rows = []
    for i, c in enumerate(data["ranked"], 1):
        rows.append(
            [
                str(i),
                ", ".join(f"{k}={v}" for k, v in c["params"].items()),
                _num(c["score"], 3),
                _interval(c, "score_low", "score_high", pct=False),
                *(_num(c["goals"].get(g), 3) for g in data["goal_names"]),
                str(c["games"]),
            ]
        )
    body = [
        f"<p>Goals: <code>{html.escape(', '.join(data['goals']))}</code>; parameters "
        f"<code>{html.escape(', '.join(data['params']))}</code>; agents "
        f"<code>{html.escape(', '.join(data['specs']))}</code>.</p>",
        _table(head, rows),
    ]
    if data["ranked"]:
        fig, ax = _figure()
        xs = list(range(1, len(data["ranked"]) + 1))
        ys = [c["score"] for c in data["ranked"]]
        lows = [c["score"] if c["score_low"] is None else c["score_low"] for c in data["ranked"]]
        highs = [c["score"] if c["score_high"] is None else c["score_high"] for c in data["ranked"]]
        err = [
            [max(0.0, y - lo) for y, lo in zip(ys, lows, strict=True)],
            [max(0.0, hi - y) for y, hi in zip(ys, highs, strict=True)],
        ]
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=3)
        ax.set_xlabel("rank")
        ax.set_ylabel("goal score (1 = every goal met)")
        ax.set_title("Candidates, best first")
        body.append(_png(fig))
    return _page(f"{data['game']}: tuning report", body)


def _skill_page(data: dict[str, Any]) -> str:
    rows = []
    for r in data["rungs"]:
        weak = r["weak"] or {}
        rows.append(
            [
                f"{data['param']}={r['budget']} vs {r['budget'] // 2}",
                str(r["games"]),
                f"{_pct(r['strong']['rate'])} ({_interval(r['strong'])})",
                f"{_pct(weak.get('rate'))} ({_interval(weak)})" if weak else "—",
                _pct(r["equal_share"]),
                _num(r.get("elo_gap"), 0),
            ]
        )
    body = [
        f"<p>Agent <code>{html.escape(data['agent'])}</code>, budget parameter "
        f"<code>{html.escape(data['param'])}</code>: at each rung the agent plays itself "
        "at half the budget (seats alternate, duplicate deals).</p>",
        _table(
            ["rung", "games", "stronger wins", "weaker wins", "equal share", "rating gap (Elo)"],
            rows,
        ),
    ]
    if data["rungs"]:
        fig, ax = _figure()
        xs = [r["budget"] for r in data["rungs"]]
        for key, label in (("strong", "budget b"), ("weak", "budget b/2")):
            vals = [r[key] or {} for r in data["rungs"]]
            ys = [v.get("rate") or 0.0 for v in vals]
            lo = [max(0.0, y - (v.get("low") or y)) for y, v in zip(ys, vals, strict=True)]
            hi = [max(0.0, (v.get("high") or y) - y) for y, v in zip(ys, vals, strict=True)]
            ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o-", capsize=3, label=label)
        ax.axhline(data["rungs"][0]["equal_share"], color="grey", linestyle="--", linewidth=1)
        ax.set_xscale("log", base=2)
        ax.set_xlabel(f"{data['param']} (b)")
        ax.set_ylabel("win rate")
        ax.set_title("Skill trace: the agent at b against itself at b/2")
        ax.legend(fontsize="small")
        body.append(_png(fig))
    return _page(f"{data['game']}: skill trace", body)


def write_report(folder: Path, out: Path | None = None) -> tuple[Path, Path]:
    """Write ``report.html`` and ``report.json`` (into ``folder`` unless ``out`` is given)."""
    page, numbers = build(folder)
    target = out or folder
    target.mkdir(parents=True, exist_ok=True)
    html_path, json_path = target / "report.html", target / "report.json"
    for path, text in ((html_path, page), (json_path, json.dumps(numbers, indent=1))):
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    return html_path, json_path
