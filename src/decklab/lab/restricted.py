"""Restricted play as a design-health report: how much does each core choice matter?

Restricted play (Jaffe et al. 2012) asks what a player loses by never making
one kind of move. A choice that costs nothing to give up is a choice the game
could do without; one whose loss is ruinous is the heart of the game. Each
game declares its core choices in ``decklab.games.<package>.choices``, by
action text or by a predicate on the position (:mod:`decklab.lab.choices`);
``options`` (optional) are game options the choice needs to exist at all (a
variant's move).

For each choice the agent restricted from it sits at one seat against
unrestricted copies, seats rotated, on the same deals as a baseline run in
which every seat is unrestricted. Per deal, the restricted agent's mean win
share and score over its seats is paired with the baseline's mean over all
seats; :mod:`decklab.lab.paired` gives the interval, the test and the smallest
detectable difference, and Holm's correction runs across the choices of the
report. A solo game has no opponents: the restricted player's score and
perfect-game rate are paired with the unrestricted player's.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from decklab.bots.spec import format_spec, parse_spec
from decklab.engine.errors import DecklabError
from decklab.engine.registry import get_game
from decklab.lab import metrics, paired
from decklab.lab.agents import NEVER, RESTRICT
from decklab.lab.arena import GameResult, run_arena
from decklab.lab.choices import Choice, game_choices
from decklab.lab.compare import deal_values
from decklab.lab.runner import derive_seed


class RestrictedError(DecklabError):
    """A restricted-play report that cannot be made (no declared choices, a bad pattern)."""


def restricted_spec(agent: str, choice: Choice, declared: Sequence[Choice] = ()) -> str:
    """``agent`` barred from ``choice``: by name (``never=``) when the game declares it, so
    that a worker finds its predicate; else by its pattern (the lab's ``restrict=``)."""
    name, params = parse_spec(agent)
    if any(c.key == choice.key and c == choice for c in declared):
        params[NEVER] = choice.name
    elif choice.when is None:
        params[RESTRICT] = choice.pattern
    else:
        raise RestrictedError(
            f"choice {choice.name!r} looks at the position: declare it in the game's choices "
            "module, where every worker process finds it by name"
        )
    return format_spec(name, params)


@dataclass(frozen=True)
class ChoiceResult:
    """One choice's paired differences (restricted − unrestricted), after Holm."""

    choice: Choice
    games: int
    differences: list[dict[str, Any]]


@dataclass
class RestrictedReport:
    game: str
    players: int
    agent: str
    seed: int
    deals: int
    options: dict[str, Any]
    solo: bool
    choices: list[ChoiceResult]

    def to_dict(self) -> dict[str, Any]:
        data = {
            "game": self.game,
            "players": self.players,
            "agent": self.agent,
            "seed": self.seed,
            "deals": self.deals,
            "options": self.options,
            "solo": self.solo,
            "alpha": paired.ALPHA,
            "min_deals": paired.MIN_DEALS,
            "choices": [
                {
                    "name": c.choice.name,
                    "pattern": c.choice.pattern,
                    "by_position": c.choice.when is not None,
                    "about": c.choice.about,
                    "options": c.choice.options,
                    "games": c.games,
                    "differences": c.differences,
                }
                for c in self.choices
            ],
        }
        cleaned: dict[str, Any] = metrics.finite(data)
        return cleaned

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)


def _rows(results: Sequence[GameResult], players: int, agents: int) -> metrics.Rows:
    return metrics.Rows(
        players=players,
        agents=[f"a{i}" for i in range(agents)],
        lineup=[list(r.lineup) for r in results],
        scores=[list(r.scores) for r in results],
        shares=[list(r.shares) for r in results],
        length=[r.decisions for r in results],
        deal=[r.deal for r in results],
    )


def _per_deal(rows: metrics.Rows, who: str) -> dict[int, dict[str, float]]:
    """Each deal's win share (or perfect-game rate) and score of agent ``who``."""
    win = "perfect games" if rows.players == 1 else "wins"
    several = len(rows.agents) > 1
    out = {}
    for d, values in deal_values(rows, rows.agents).items():
        suffix = f" ({who})" if several else ""
        out[d] = {win: values[win + suffix], "score": values["score" + suffix]}
    return out


def run_restricted(
    game: str,
    agent: str,
    games: int,
    seed: int = 0,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    progress: bool = True,
    choices: Sequence[Choice] | None = None,
) -> RestrictedReport:
    """Every declared choice (or ``choices``) restricted in turn, paired with the baseline.

    ``games`` is the number of games of each restricted run (whole deals, every
    seat rotation); the baseline plays the same deals once each.
    """
    try:
        cls = get_game(game)
    except KeyError as exc:
        raise RestrictedError(str(exc.args[0])) from None
    info = cls.info
    declared = game_choices(cls)
    todo = list(choices) if choices is not None else declared
    if not todo:
        raise RestrictedError(f"{info.title} declares no core choices (a choices.py hook)")
    n = players if players is not None else info.default_players
    deals = max(1, math.ceil(games / n))
    base_options = dict(options or {})
    baselines: dict[str, dict[int, dict[str, float]]] = {}
    rows_out: list[tuple[Choice, int, list[dict[str, Any]]]] = []
    for index, choice in enumerate(todo):
        opts = {**base_options, **choice.options}
        key = json.dumps(opts, sort_keys=True, default=str)
        if key not in baselines:
            base = run_arena(
                game,
                [agent] * n,
                deals,
                seed=seed,
                options=opts,
                workers=workers,
                progress=progress,
                players=n,
                keep_results=True,
                title=f"{info.title}: {agent} unrestricted",
            )
            baselines[key] = _per_deal(_rows(base.results or [], n, 1), "a0")
        spec = restricted_spec(agent, choice, declared)
        run = run_arena(
            game,
            [spec] + [agent] * (n - 1),
            deals * (n if n > 1 else 1),
            seed=seed,
            options=opts,
            workers=workers,
            progress=progress,
            players=n,
            keep_results=True,
            title=f"{info.title}: never {choice.name}",
        )
        results = run.results or []
        who = "a0"
        mine = _per_deal(_rows(results, n, 1 if n == 1 else 2), who)
        baseline = baselines[key]
        common = [d for d in mine if d in baseline]
        diffs_out = []
        for k, metric in enumerate(mine[common[0]] if common else {}):
            pairs = [(baseline[d][metric], mine[d][metric]) for d in common]
            diffs = [y - x for x, y in pairs]
            t = paired.paired_t(diffs)
            low, high = paired.bootstrap_interval(diffs, derive_seed(seed, 0x5E57, index, k))
            diffs_out.append(
                {
                    "metric": metric,
                    "deals": len(diffs),
                    "unrestricted": math.fsum(x for x, _ in pairs) / len(pairs),
                    "restricted": math.fsum(y for _, y in pairs) / len(pairs),
                    "difference": t.mean,
                    "t_low": t.low,
                    "t_high": t.high,
                    "bootstrap_low": low,
                    "bootstrap_high": high,
                    "p": t.p,
                    "mde": paired.mde(t.sd, t.n),
                }
            )
        rows_out.append((choice, len(results), diffs_out))
    # Holm across every test of the report (each choice's win and score rows).
    flat = [d for _, _, ds in rows_out for d in ds]
    adjusted = paired.holm([math.nan if d["p"] is None else float(d["p"]) for d in flat])
    for d, p in zip(flat, adjusted, strict=True):
        d["holm_p"] = p
        d["verdict"] = paired.verdict(int(d["deals"]), p)
        d["tests"] = sum(1 for q in adjusted if not math.isnan(q))
    return RestrictedReport(
        game=info.name,
        players=n,
        agent=agent,
        seed=seed,
        deals=deals,
        options=base_options,
        solo=n == 1,
        choices=[ChoiceResult(c, g, ds) for c, g, ds in rows_out],
    )


# ------------------------------------------------------------------ rendering
def _num(x: Any, pct: bool) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{100 * x:+.1f}" if pct else f"{x:+.2f}"


def _plain(x: Any, pct: bool) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{100 * x:.1f}%" if pct else f"{x:.2f}"


def render_restricted(report: RestrictedReport) -> RenderableType:
    """One row per choice and metric: means, paired difference, interval, verdict."""
    data = report.to_dict()
    head = Text(
        f"{report.game}, {report.players} player(s): {report.agent} never making each choice, "
        f"{report.deals} deals, seed {report.seed} (restricted − unrestricted, paired by deal; "
        f"Holm across {len([d for c in data['choices'] for d in c['differences']])} tests)",
        style="bold",
    )
    table = Table(title_justify="left")
    for name in (
        "choice",
        "metric",
        "unrestricted",
        "restricted",
        "difference",
        "95% interval",
        "Holm p",
        "smallest detectable",
        "verdict",
    ):
        table.add_column(
            name, justify="left" if name in ("choice", "metric", "verdict") else "right"
        )
    for c in data["choices"]:
        for i, d in enumerate(c["differences"]):
            pct = d["metric"] != "score"
            unit = " pts" if pct else ""
            table.add_row(
                c["name"] if i == 0 else "",
                d["metric"],
                _plain(d["unrestricted"], pct),
                _plain(d["restricted"], pct),
                _num(d["difference"], pct) + unit,
                f"{_num(d['t_low'], pct)} – {_num(d['t_high'], pct)}",
                "—" if d["holm_p"] is None else f"{d['holm_p']:.3g}",
                "—" if d["mde"] is None else _num(d["mde"], pct).lstrip("+") + unit,
                f"[bold]{d['verdict']}[/bold]" if d["verdict"] == paired.FINDING else d["verdict"],
            )
    notes = Text("\n".join(f"{c['name']}: {c['about']}" for c in data["choices"]), style="dim")
    return Group(head, table, notes)
