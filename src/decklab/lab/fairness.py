"""Seat fairness: does a seat win more often when every seat holds the same agent?

With identical agents in every seat, any difference between the seats' win rates
is the seat's own effect: either the rules favour it (a lead-off, a tie-break)
or the agent plays differently depending on where it sits (issue 20: an expert
that believed the seats who chose before it played uniformly at random). So the
seats are *not* rotated here, unlike in the arena: each table size is one arena
run with a single agent spec, whose per-seat rates are the answer.

Each table size gets its seats' win rates with 95% Wilson intervals and Pearson's
χ² test of "every seat wins equally often" (:func:`decklab.lab.stats.equal_shares_chi2`:
a win shared by k seats counts 1/k to each). A p-value at or below
:data:`ALPHA` is reported as a seat effect.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from decklab.engine.errors import DecklabError
from decklab.engine.registry import get_game
from decklab.lab import stats
from decklab.lab.arena import Rate, run_arena
from decklab.lab.runner import logged_wall_seconds

ALPHA = 0.01
"""A p-value at or below this is called a seat effect (issue 20: p > 0.01 at ≥ 400 games)."""


class FairnessError(DecklabError):
    """A fairness run that cannot be done as asked (a solo game, a bad table size)."""


@dataclass
class SeatTable:
    """All-same-agent games at one table size: each seat's wins and the χ² test."""

    players: int
    games: int
    seats: list[Rate]
    chi2: float
    dof: int
    p_value: float
    no_winner: int
    """Games that nobody won (they add nothing to any seat's wins)."""
    seconds: float
    """Wall time of the run (varies from run to run, unlike everything else)."""

    @property
    def seat_effect(self) -> bool:
        return self.p_value <= ALPHA


@dataclass
class FairnessReport:
    game: str
    version: int
    agent: str
    seed: int
    options: dict[str, Any]
    tables: list[SeatTable]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for table, raw in zip(self.tables, out["tables"], strict=True):
            raw["seat_effect"] = table.seat_effect
        out["alpha"] = ALPHA
        out["shared_wins"] = "a win shared by k seats counts 1/k to each"
        cleaned: dict[str, Any] = _finite(out)
        return cleaned

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)


def _finite(obj: Any) -> Any:
    """NaN (a rate over no games) as null, so that the JSON is standard."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_finite(v) for v in obj]
    return obj


def table_sizes(game: str, players: Sequence[int] | None) -> list[int]:
    """The table sizes to test: as asked (checked), else every size the game allows but 1."""
    try:
        info = get_game(game).info
    except KeyError as exc:
        raise FairnessError(str(exc.args[0])) from None
    if info.max_players < 2:
        raise FairnessError(f"{info.title} is played alone: a single seat has no seat effect")
    if not players:
        return list(range(max(2, info.min_players), info.max_players + 1))
    for n in players:
        if not info.min_players <= n <= info.max_players or n < 2:
            raise FairnessError(
                f"{info.title} is for {info.players_text()} players, and a seat effect needs "
                f"at least 2; not {n}"
            )
    return sorted(set(players))


def parse_sizes(text: str) -> list[int]:
    """``"4,6"`` or ``"4-10"`` (or a mix, ``"2,4-5"``) → the table sizes."""
    sizes: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        low, dash, high = part.partition("-")
        try:
            if dash:
                sizes.extend(range(int(low), int(high) + 1))
            else:
                sizes.append(int(part))
        except ValueError:
            raise FairnessError(
                f"--players takes table sizes such as 4,6 or 4-10, not {text!r}"
            ) from None
    if not sizes:
        raise FairnessError(f"--players names no table size in {text!r}")
    return sizes


def run_fairness(
    game: str,
    agent: str,
    games: int,
    seed: int = 0,
    players: Sequence[int] | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    progress: bool = True,
    out: Path | None = None,
) -> FairnessReport:
    """``agent`` in every seat, at least ``games`` games at each table size; per-seat rates.

    The games are the arena's (the same runner, deals and seeds): with one spec
    the arena seats it everywhere and has a single seating to play, so no seat
    is rotated. ``out`` keeps each table size's finished batches in ``out/players-N``, so
    that the same command resumes an interrupted study (an all-expert table of ten takes
    hours); a table's wall time then adds up its sittings.
    """
    sizes = table_sizes(game, players)
    info = get_game(game).info
    tables: list[SeatTable] = []
    for n in sizes:
        folder = None if out is None else out / f"players-{n}"
        earlier = 0.0 if folder is None else logged_wall_seconds(folder)
        start = time.perf_counter()
        report = run_arena(
            game,
            [agent],
            games,
            seed=seed,
            options=options,
            workers=workers,
            progress=progress,
            players=n,
            title=f"{info.title}, {n} × {agent}",
            out=folder,
        )
        seconds = earlier + time.perf_counter() - start
        wins = [rate.wins for rate in report.per_seat]
        chi2, dof, p = stats.equal_shares_chi2(wins)
        no_winner = report.games - round(math.fsum(wins))
        tables.append(SeatTable(n, report.games, report.per_seat, chi2, dof, p, no_winner, seconds))
    return FairnessReport(info.name, info.version, agent, seed, dict(options or {}), tables)


# ------------------------------------------------------------------ rendering
def _pct(x: float) -> str:
    return "—" if math.isnan(x) else f"{100 * x:.1f}%"


def _p(p: float) -> str:
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.1e}"


def render_fairness(report: FairnessReport) -> RenderableType:
    """One table per table size (each seat's rate and interval), then a summary."""
    parts: list[RenderableType] = [
        Text(
            f"{report.game} v{report.version}: {report.agent} in every seat, seed {report.seed} "
            "(seats not rotated; a shared win counts 1/k to each of its k seats)",
            style="bold",
        )
    ]
    for t in report.tables:
        table = Table(title=f"{t.players} players, {t.games} games", title_justify="left")
        table.add_column("seat", style="bold")
        table.add_column("wins", justify="right")
        table.add_column("win rate", justify="right")
        table.add_column("95% interval", justify="right")
        fair = 1.0 / t.players
        for r in t.seats:
            mark = "" if r.win_low <= fair <= r.win_high else " *"
            table.add_row(
                r.label,
                f"{r.wins:g}",
                _pct(r.win_rate) + mark,
                f"{_pct(r.win_low)} – {_pct(r.win_high)}",
            )
        table.caption = (
            f"fair share {_pct(fair)} (* outside the interval); "
            f"χ² = {t.chi2:.2f}, {t.dof} dof, p = {_p(t.p_value)}"
            + (f"; {t.no_winner} games without a winner" if t.no_winner else "")
        )
        parts.append(table)
    summary = Table(title="seat effect (χ² test, every seat alike)", title_justify="left")
    for name in ("players", "games", "χ²", "p", "verdict", "time"):
        summary.add_column(name, justify="left" if name == "verdict" else "right")
    for t in report.tables:
        verdict = (
            f"[red]seat effect (p ≤ {ALPHA:g})[/red]"
            if t.seat_effect
            else f"none found (p > {ALPHA:g})"
        )
        summary.add_row(
            str(t.players),
            str(t.games),
            f"{t.chi2:.2f}",
            _p(t.p_value),
            verdict,
            f"{t.seconds:.1f} s",
        )
    parts.append(summary)
    return Group(*parts)
