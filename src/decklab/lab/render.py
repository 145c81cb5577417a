"""The arena report as rich tables, for a person at a terminal."""

from __future__ import annotations

import math

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from decklab.lab.arena import ArenaReport, Rate


def _pct(x: float) -> str:
    return "—" if math.isnan(x) else f"{100 * x:.1f}%"


def _num(x: float) -> str:
    return "—" if math.isnan(x) else f"{x:.2f}"


def _rate_table(
    title: str,
    rows: list[Rate],
    first: str,
    unit: str,
    extra: tuple[str, list[str]] | None = None,
    solo: bool = False,
) -> Table:
    """Win rates then mean scores; a solo game leads with the score (what a player of
    patience aims at) and calls its wins what they are, perfect games."""
    table = Table(title=title, title_justify="left")
    table.add_column(first, style="bold")
    table.add_column("games", justify="right")
    rate = ("perfect games" if solo else "win rate", "95% interval")
    score = (f"mean {unit}", "95% interval")
    for name in (*score, *rate) if solo else (*rate, *score):
        table.add_column(name, justify="right")
    if extra is not None:
        table.add_column(extra[0], justify="right")
    for n, r in enumerate(rows):
        rates = [_pct(r.win_rate), f"{_pct(r.win_low)} – {_pct(r.win_high)}"]
        scores = [_num(r.mean_score), f"{_num(r.score_low)} – {_num(r.score_high)}"]
        table.add_row(
            r.label,
            str(r.games),
            *(scores + rates if solo else rates + scores),
            *([extra[1][n]] if extra is not None else []),
        )
    return table


def render_report(report: ArenaReport, score_unit: str = "score") -> RenderableType:
    """Summary line, agents, seats, ratings and the SPRT verdict."""
    parts: list[RenderableType] = []
    mean, low, high = report.mean_length
    head = (
        f"{report.game} v{report.version}, {report.players} seats, seed {report.seed}: "
        f"{report.deals} deals × {len(report.lineups)} seatings = {report.games} games"
    )
    if report.stopped_early:
        head += f" (stopped early; {report.deals_planned} deals allowed)"
    parts.append(Text(head, style="bold"))
    solo = report.players == 1
    parts.append(
        Text(
            f"mean length {_num(mean)} decisions (95%: {_num(low)} – {_num(high)})"
            + ("" if solo else f"; expected win rate for equals: {_pct(1 / report.players)}")
        )
    )
    if report.unfair:
        parts.append(
            Text(f"analysis only: {', '.join(report.unfair)} sees hidden cards", style="yellow")
        )
    think = [f"{report.seconds_per_decision[spec]:.4f}" for spec in report.agents]
    parts.append(
        _rate_table(
            "By agent" if solo else "By agent (a shared win counts 1/k)",
            report.per_agent,
            "agent",
            score_unit,
            ("s/decision", think),
            solo=solo,
        )
    )
    if not solo:  # one seat: its row would repeat the games of every agent together
        parts.append(_rate_table("By seat", report.per_seat, "seat", score_unit))
    if report.ratings:
        ratings = Table(
            title=(
                "Plackett–Luce ratings on who wins (Elo scale; bootstrap over deals)"
                if report.players > 1
                else "Bradley–Terry ratings (scores on the same deal; bootstrap over deals)"
            ),
            title_justify="left",
        )
        ratings.add_column("agent", style="bold")
        ratings.add_column("Elo", justify="right")
        ratings.add_column("95% interval", justify="right")
        for r in sorted(report.ratings, key=lambda r: -r.elo):
            interval = "— (too few deals)" if math.isnan(r.low) else f"{r.low:+.0f} – {r.high:+.0f}"
            ratings.add_row(r.spec, f"{r.elo:+.0f}", interval)
        parts.append(ratings)
    if report.sprt is not None:
        s = report.sprt
        parts.append(
            Text(
                f"SPRT {s.a} vs {s.b}, elo0={s.elo0:g} elo1={s.elo1:g} "
                f"(α={s.alpha:g}, β={s.beta:g}): LLR {s.llr:+.2f} in [{s.lower:.2f}, {s.upper:.2f}] "
                f"after {s.deals} deals, score {_pct(s.score)} — {s.verdict()}",
                style="bold green" if s.accepted else "bold",
            )
        )
    return Group(*parts)
