"""The findings pages' PNG plots, drawn from the reports' JSON next to this script.

    python docs/findings/plots.py [PAGE ...]     (facade cabin corporation corporation-payout lonely-face notorious …)

Each plot shows the page's key figures with their 95% intervals (the same numbers as
the tables; the HTML reports hold the full set of plots per variant). Matplotlib,
no display needed; files are written next to this script as ``PAGE-*.png``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HERE = Path(__file__).resolve().parent
Bar = tuple[float, float, float]
"""(value, low, high)."""


def _load(name: str) -> dict[str, Any]:
    return json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))


def _rate(d: dict[str, Any], key: str = "rate", low: str = "low", high: str = "high") -> Bar:
    return (d[key], d[low], d[high])


def _bars(
    ax: Any,
    groups: Sequence[str],
    series: dict[str, Sequence[Bar | None]],
    ylabel: str,
    title: str,
    fair: Sequence[float] | None = None,
    pct: bool = False,
) -> None:
    """Grouped bars with 95% error bars; ``fair`` draws each group's reference as a dash."""
    k = len(series)
    width = 0.8 / max(k, 1)
    scale = 100.0 if pct else 1.0
    for i, (name, bars) in enumerate(series.items()):
        xs, ys, lo, hi = [], [], [], []
        for g, b in enumerate(bars):
            if b is None:
                continue
            xs.append(g - 0.4 + width * (i + 0.5))
            ys.append(b[0] * scale)
            lo.append((b[0] - b[1]) * scale)
            hi.append((b[2] - b[0]) * scale)
        ax.bar(xs, ys, width * 0.92, yerr=[lo, hi], capsize=3, label=name)
    if fair is not None:
        for g, f in enumerate(fair):
            ax.hlines(f * scale, g - 0.45, g + 0.45, colors="black", linestyles="dashed", lw=1)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=8)
    ax.set_ylabel(ylabel + (" (%)" if pct else ""))
    ax.set_title(title, fontsize=10)
    if k > 1:
        ax.legend(fontsize=7)
    ax.grid(axis="y", alpha=0.3)


def _save(fig: Any, name: str) -> None:
    fig.tight_layout()
    fig.savefig(HERE / f"{name}.png", dpi=80)
    plt.close(fig)
    print(HERE / f"{name}.png")


def _variants(name: str) -> dict[str, Any]:
    return _load(name)["variants"]


def _expert_among_greedy(name: str) -> tuple[dict[str, Any], int] | None:
    """A Façade run of one expert among greedy seats (``facade-edge-*.json``): the expert's win
    rate and the run's deals (games over seats: every seat rotation of a deal is a game), or
    None where the run is not here."""
    path = HERE / f"{name}.json"
    if not path.exists():
        return None
    cell = json.loads(path.read_text(encoding="utf-8"))["variants"]["simulation"]
    rate = next(r for r in cell["agent_rates"] if r["agent"].startswith("expert"))
    return rate, cell["games"] // cell["players"]


def facade_edge(sizes: Sequence[int]) -> tuple[dict[str, list[Bar | None]], str]:
    """The Façade summary's third panel: the earlier one-expert runs' edge over a fair share
    per table size, and its title, which sends the reader to the headline's 60-deal runs
    with their figures read from their reports (a rerun cannot leave the old ones here)."""
    edge: dict[str, list[Bar | None]] = {"fifth suit off": [], "fifth suit on": []}
    deals: list[int] = []
    for n in sizes:
        for key, name in (("", "fifth suit off"), ("-fifth", "fifth suit on")):
            run = _expert_among_greedy(f"facade-edge-{n}{key}")
            if run is None:
                edge[name].append(None)
                continue
            a, count = run
            edge[name].append((a["rate"] - 1 / n, a["low"] - 1 / n, a["high"] - 1 / n))
            deals.append(count)
    # the page's headline: the 4-player runs on 60 deals that superseded the earlier ones
    headline: list[str] = []
    for key in ("", "-fifth"):
        run = _expert_among_greedy(f"facade-edge-4-60{key}")
        assert run is not None, f"facade-edge-4-60{key}.json: the headline's run"
        headline.append(f"{100 * run[0]['rate']:.1f}%")
    title = (
        f"Earlier runs, {min(deals)}–{max(deals)} deals (4 players: superseded,\n"
        f"see the headline: {' vs '.join(headline)})"
    )
    return edge, title


def facade() -> None:
    v = _variants("facade")
    expert = _variants("facade-first-bidder")  # the expert at every seat, 3 and 4 players
    sizes = (2, 3, 4)
    groups = [f"{n} players" for n in sizes]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.4))

    def cell(n: int, fifth: bool) -> dict[str, Any]:
        return v[f"players={n}, fifth_suit={'true' if fifth else 'false'}"]

    _bars(
        axes[0],
        groups,
        {
            **{
                f"greedy, fifth suit {'on' if f else 'off'}": [
                    _rate(cell(n, f)["first_player"]) for n in sizes
                ]
                for f in (False, True)
            },
            "expert at every seat": [
                _rate(expert[f"players={n}"]["first_player"]) if f"players={n}" in expert else None
                for n in sizes
            ],
        },
        "first bidder wins",
        "The first bidder's win rate (dash: fair 1/n)",
        fair=[1 / n for n in sizes],
        pct=True,
    )
    _bars(
        axes[1],
        groups,
        {
            f"fifth suit {'on' if f else 'off'}": [
                (s["mean"], s["low"], s["high"])
                for s in (cell(n, f)["scores"]["margin"] for n in sizes)
            ]
            for f in (False, True)
        },
        "points",
        "Winning margin (best − second)",
    )
    edge, title = facade_edge(sizes)
    _bars(
        axes[2],
        groups,
        edge,
        "expert's win rate − 1/n",
        title,
        pct=True,
    )
    axes[2].axhline(0, color="black", lw=1)
    _save(fig, "facade-summary")


def cabin() -> None:
    bound = json.loads((HERE / "cabin-bound.json").read_text(encoding="utf-8"))["summary"]
    labels = list(bound)
    groups = [label.replace(", ", "\n") for label in labels]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    series: dict[str, list[Bar | None]] = {"clairvoyant bound": []}
    for label in labels:
        b = bound[label]["bound"]
        series["clairvoyant bound"].append((b["mean"], b["low"], b["high"]))
    for agent_dir, name in (("cabin-expert", "expert"), ("cabin", "greedy")):
        series[name] = []
        for label in labels:
            a = bound[label]["agents"].get(agent_dir)
            series[name].append(
                None if a is None else (a["score"]["mean"], a["score"]["low"], a["score"]["high"])
            )
    for name, report in (("greedy (all deals)", "cabin"),):
        path = HERE / f"{report}.json"
        if path.exists():
            v = _variants(report)
            series[name] = []
            for label in labels:
                s = v[label]["scores"]["per_seat"][0]
                series[name].append((s["mean"], s["low"], s["high"]))
    series.pop("greedy", None) if "greedy (all deals)" in series else None
    _bars(axes[0], groups, series, "squid points (lower is better)", "Mean squid points")
    perfect = {
        "clairvoyant bound": [_rate(bound[label]["bound_perfect"]) for label in labels],
    }
    _bars(axes[1], groups, perfect, "perfect games", "Deals that allow a perfect game", pct=True)
    _save(fig, "cabin-summary")


def corporation() -> None:
    fig, axes = plt.subplots(1, 3, figsize=(14, 3.4))
    sizes = [n for n in range(4, 11) if (HERE / f"corporation-mixed-{n}.json").exists()]
    mults = {"n²": 1.0, "1.5n²": 1.5, "2n² (the rule)": 2.0, "2.5n²": 2.5, "3n²": 3.0}
    rounds: dict[str, list[Bar | None]] = {m: [] for m in mults}
    skill: dict[str, list[Bar | None]] = {m: [] for m in mults}
    kinds: dict[str, list[Bar | None]] = {"paid": [], "betrayed": [], "crowded": []}
    for n in sizes:
        v = _variants(f"corporation-mixed-{n}")
        for m, k in mults.items():
            cell = v.get(f"target={int(k * n * n)}")
            if cell is None:
                rounds[m].append(None)
                skill[m].append(None)
                continue
            rounds[m].append(_rate(cell["events"]["rounds"], "mean"))
            greedy = next(a for a in cell["agent_rates"] if a["agent"].startswith("greedy"))
            skill[m].append(_rate(greedy))
        e = v[f"target={2 * n * n}"]["events"]
        tested = e["corporations_paid"]["mean"] + e["corporations_broken"]["mean"]
        for kind in kinds:
            share = e[f"corporations_{kind}"]["mean"] / tested if tested else 0.0
            kinds[kind].append((share, share, share))
    groups = [f"{n} players" for n in sizes]
    _bars(axes[0], groups, rounds, "rounds", "Rounds per game, by target")
    _bars(
        axes[1],
        groups,
        skill,
        "win rate of a greedy seat",
        "greedy seats against random seats",
        pct=True,
    )
    _bars(
        axes[2],
        groups,
        kinds,
        "share of Corporations put to the test",
        "At 2n²: what becomes of a Corporation",
        pct=True,
    )
    _save(fig, "corporation-summary")


def payout_decided() -> dict[str, list[Bar | None]]:
    """Per table size 4–10, the share of games one payout decided (``payout_decided``), with
    its Wilson interval: the mixed field (greedy and random alternating, target 2n², 2,000
    games a size) under the rules' reward and the plugin's, and the expert's 40-game check
    at 4 and 6 players where it was made (None elsewhere)."""
    sizes = range(4, 11)
    out: dict[str, list[Bar | None]] = {}
    for label, kind in (("rules: value × members", "rule"), ("value × (members − 1)", "shared")):
        out[label] = [
            _rate(
                _variants(f"corporation-{kind}-{n}")["simulation"]["events"]["payout_decided"],
                "rate",
                "rate_low",
                "rate_high",
            )
            for n in sizes
        ]
    expert = {v["players"]: v for v in _variants("corporation-expert").values()}
    out["expert:iters=48 and greedy (40 games)"] = [
        _rate(expert[n]["events"]["payout_decided"], "rate", "rate_low", "rate_high")
        if n in expert
        else None
        for n in sizes
    ]
    return out


def corporation_payout() -> None:
    fig, ax = plt.subplots(figsize=(9, 3.4))
    series = payout_decided()
    groups = [f"{n} players" for n in range(4, 11)]
    _bars(
        ax,
        groups,
        series,
        "games a single payout decided",
        "Does one Corporation's payout decide the game? (target 2n², 95% intervals)",
        pct=True,
    )
    _save(fig, "corporation-payout")


def cabin_ladder() -> None:
    """The difficulty ladder: each rung's score distribution per agent (box: 25th–75th
    percentile, line: median, whiskers: 10th–90th, dot: mean), and each rung's paired
    difference from the rules' game (8 stacks, no dump) with its 95% t-interval."""
    data = _load("cabin-ladder")
    summaries = {s["label"]: s for s in data["summaries"]}
    agents = list(dict.fromkeys(label.split(": ", 1)[0] for label in summaries))
    rungs = list(dict.fromkeys(label.split(": ", 1)[1] for label in summaries))
    fig, axes = plt.subplots(1, 2, figsize=(12, 3.8))
    width = 0.8 / len(agents)
    for i, agent in enumerate(agents):
        stats, xs = [], []
        for g, rung in enumerate(rungs):
            s = summaries.get(f"{agent}: {rung}")
            if s is None:
                continue
            p = s["percentiles"]
            stats.append(
                {
                    "med": p["p50"],
                    "q1": p["p25"],
                    "q3": p["p75"],
                    "whislo": p["p10"],
                    "whishi": p["p90"],
                    "mean": s["mean"],
                    "fliers": [],
                    "label": "",
                }
            )
            xs.append(g - 0.4 + width * (i + 0.5))
        color = f"C{i}"
        axes[0].bxp(
            stats,
            positions=xs,
            widths=width * 0.8,
            showmeans=True,
            patch_artist=True,
            boxprops={"facecolor": color, "alpha": 0.5},
            medianprops={"color": "black"},
            meanprops={"marker": "o", "markerfacecolor": "white", "markeredgecolor": "black"},
        )
        axes[0].plot(
            [],
            [],
            color=color,
            lw=6,
            alpha=0.5,
            label=f"{agent} ({max(st['games'] for k, st in summaries.items() if k.startswith(agent + ': '))} deals)",
        )
    axes[0].set_xticks(range(len(rungs)))
    axes[0].set_xticklabels(rungs, fontsize=8)
    axes[0].set_ylabel("squid points (lower is better)")
    axes[0].set_title("Score per rung: 10th/25th/50th/75th/90th percentiles, mean", fontsize=10)
    axes[0].legend(fontsize=7)
    axes[0].grid(axis="y", alpha=0.3)
    diffs = {
        (r["comparison"]): (r["difference"], r["t_low"], r["t_high"])
        for r in data["differences"]
        if r["metric"] == "score"
    }
    series = {agent: [diffs.get(f"{agent}: {rung}") for rung in rungs] for agent in agents}
    _bars(
        axes[1],
        rungs,
        series,
        "squid points, paired",
        "Each rung minus the rules' game (8 stacks), same deals",
    )
    axes[1].axhline(0, color="black", lw=0.8)
    _save(fig, "cabin-ladder")


def lonely_face_opening() -> None:
    """The first player's win rate with the rules' deal and with the opening grid
    without pairs (Wilson 95%; dash: the fair 1/n), and the paired difference."""
    from decklab.lab.stats import wilson

    rows = [r for r in _load("lonely-face-opening")["differences"]]
    first = [r for r in rows if r["metric"] == "first player wins"]
    groups = [r["comparison"] for r in first]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    series: dict[str, list[Bar | None]] = {"rules' deal": [], "opening=no_pairs": []}
    for r in first:
        for name, key in (("rules' deal", "a_mean"), ("opening=no_pairs", "b_mean")):
            low, high = wilson(r[key] * r["deals"], r["deals"])
            series[name].append((r[key], low, high))
    fair = [1 / int(g.split()[0]) for g in groups]
    _bars(
        axes[0], groups, series, "wins", "First player's win rate (dash: fair 1/n)", fair, pct=True
    )
    diffs = {
        "first player wins": [(r["difference"], r["t_low"], r["t_high"]) for r in first],
    }
    _bars(
        axes[1],
        groups,
        diffs,
        "points of win rate, paired",
        "no_pairs minus the rules' deal, same deals",
        pct=True,
    )
    axes[1].axhline(0, color="black", lw=0.8)
    _save(fig, "lonely-face-opening")


def lonely_face() -> None:
    v = _variants("lonely-face")
    labels = list(v)
    groups = [
        label.replace("players=", "")
        .replace(", suit_die=false", "p deck")
        .replace(", suit_die=true", "p die")
        .replace(", stall_rounds=", "\ns")
        for label in labels
    ]
    fig, axes = plt.subplots(1, 2, figsize=(13, 3.6))
    _bars(
        axes[0],
        groups,
        {"first mover": [_rate(v[label]["first_player"]) for label in labels]},
        "wins",
        "First mover's win rate (dash: fair 1/n)",
        fair=[1 / v[label]["players"] for label in labels],
        pct=True,
    )
    _bars(
        axes[1],
        groups,
        {
            "ended by the stall rule": [
                _rate(v[label]["events"]["ended_by_stall"], "rate", "rate_low", "rate_high")
                for label in labels
            ]
        },
        "games",
        "Games ended by the stall rule",
        pct=True,
    )
    _save(fig, "lonely-face-summary")


def notorious() -> None:
    v = _variants("notorious")
    labels = list(v)
    sizes = [v[label]["players"] for label in labels]
    groups = [f"{n} players" for n in sizes]
    games = 5

    def per_game(label: str, key: str, denom: int = games) -> Bar:
        e = v[label]["events"][key]
        return (e["mean"] / denom, e["low"] / denom, e["high"] / denom)

    fig, axes = plt.subplots(1, 2, figsize=(13, 3.6))
    _bars(
        axes[0],
        groups,
        {
            "first lead-off wins the match": [
                _rate(v[label]["events"]["first_lead_off_won"], "rate", "rate_low", "rate_high")
                for label in labels
            ],
            "a game's lead-off is disqualified again": [
                per_game(label, "lead_off_disqualified") for label in labels
            ],
            "a game's lead-off gains the most": [
                per_game(label, "lead_off_top_gain") for label in labels
            ],
        },
        "share",
        "The lead-off (dash: a seat at random, 1/n)",
        fair=[1 / n for n in sizes],
        pct=True,
    )
    _bars(
        axes[1],
        groups,
        {
            "game needs the tie-break": [per_game(label, "tiebreak_games") for label in labels],
            "match leader disqualified": [
                per_game(label, "leader_disqualified", games - 1) for label in labels
            ],
            "match winner had the best counted score": [
                per_game(label, "winner_best_counted_games") for label in labels
            ],
        },
        "share of games",
        "Per game (dash: 1/n)",
        fair=[1 / n for n in sizes],
        pct=True,
    )
    _save(fig, "notorious-summary")


PAGES = {
    "facade": facade,
    "cabin": cabin,
    "cabin-ladder": cabin_ladder,
    "corporation": corporation,
    "corporation-payout": corporation_payout,
    "lonely-face": lonely_face,
    "lonely-face-opening": lonely_face_opening,
    "notorious": notorious,
}


def main() -> None:
    for name in sys.argv[1:] or list(PAGES):
        PAGES[name]()


if __name__ == "__main__":
    main()
