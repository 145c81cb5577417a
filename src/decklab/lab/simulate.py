"""``decklab simulate``: many games of one variant, one Parquet row per game, resumable.

A simulation is a runner plan written to a folder (see :mod:`decklab.lab.runner`
for the files). Running it again with the same arguments resumes it; with a
finished folder it does nothing and says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decklab.lab.runner import LOCAL, Backend, Batch, Plan, RunFolder, make_plan, run_to_folder


@dataclass
class SimulationSummary:
    """What a finished (or resumed) simulation says at the end."""

    out: Path
    plan: Plan
    games: int
    resumed_batches: int
    cpu_seconds: float
    wins: list[float]
    seats: list[int]

    def win_rates(self) -> dict[str, float]:
        return {
            spec: (self.wins[i] / self.seats[i] if self.seats[i] else 0.0)
            for i, spec in enumerate(self.plan.agents)
        }


class RunProgress:
    """A rich progress bar on stderr: games, ETA and each agent's running win rate."""

    def __init__(self, enabled: bool, total: int, title: str, agents: Sequence[str]) -> None:
        self.enabled = enabled
        self.total = total
        self.title = title
        self.agents = list(agents)
        self.wins = [0.0] * len(agents)
        self.seats = [0] * len(agents)
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> RunProgress:
        if self.enabled:
            from decklab.lab.progress import progress_bar

            self._progress = progress_bar(with_rates=True)
        if self._progress is not None:
            self._progress.__enter__()
            self._task = self._progress.add_task(self.title, total=self.total, rates="")
        return self

    def rates(self) -> str:
        parts = []
        for i, spec in enumerate(self.agents):
            if self.seats[i]:
                parts.append(f"{spec} {100 * self.wins[i] / self.seats[i]:.1f}%")
        return "wins: " + " · ".join(parts) if parts else ""

    def batch(self, batch: Batch) -> None:
        for i, w in enumerate(batch.wins):
            self.wins[i] += w
        for i, s in enumerate(batch.seats_played):
            self.seats[i] += s
        if self._progress is not None:
            self._progress.update(self._task, advance=batch.games, rates=self.rates())

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(None, None, None)


def simulate(
    game: str,
    specs: Sequence[str],
    games: int,
    out: Path,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    backend: Backend = LOCAL,
    progress: bool = False,
    trace: bool = True,
    batch_deals: int | None = None,
    stop_after: int | None = None,
    title: str | None = None,
) -> SimulationSummary:
    """Simulate (or resume) ``games`` games of ``game`` into the folder ``out``."""
    plan = make_plan(
        game,
        specs,
        games,
        seed=seed,
        options=options,
        players=players,
        trace=trace,
        batch_deals=batch_deals,
    )
    return run_plan(
        plan, out, backend=backend, progress=progress, stop_after=stop_after, title=title
    )


def run_plan(
    plan: Plan,
    out: Path,
    *,
    backend: Backend = LOCAL,
    progress: bool = False,
    stop_after: int | None = None,
    title: str | None = None,
) -> SimulationSummary:
    """Play what the folder lacks of ``plan`` (the sweep calls this per cell)."""
    folder = RunFolder.open(out, plan)  # refuses a folder with another plan before any work
    resumed = len(folder.finished())
    label = title or f"{plan.game} ×{plan.players}: {' vs '.join(plan.agents)}"
    bar = RunProgress(progress, plan.games, label, plan.agents)
    cpu = [0.0]

    def seen(batch: Batch) -> None:
        cpu[0] += batch.cpu_seconds
        bar.batch(batch)

    with bar:
        run_to_folder(plan, out, backend, on_batch=seen, stop_after=stop_after)
    done = folder.finished()
    return SimulationSummary(
        out=out,
        plan=plan,
        games=sum(int(e["games"]) for e in done.values()),
        resumed_batches=resumed,
        cpu_seconds=cpu[0],
        wins=bar.wins,
        seats=bar.seats,
    )
