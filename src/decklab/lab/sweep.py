"""``decklab sweep``: a grid of variants, each cell a simulation in its own folder.

``--vary players=2,3,4 --vary fifth_suit=false,true`` makes six cells; the
table size (``players``) is a variable like any game option. Every cell uses
the same seed, so the variants are compared on the same deal seeds (common
random numbers: less noise in the differences). ``sweep.json`` lists the
cells; running the sweep again skips the finished cells and resumes the one
that was interrupted.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import decklab
from decklab.engine.errors import DecklabError
from decklab.lab.runner import LOCAL, Backend, Plan, RunFolder, make_plan
from decklab.lab.simulate import SimulationSummary, run_plan

SWEEP = "sweep.json"
PLAYERS = "players"


class SweepError(DecklabError):
    """A sweep that cannot be run as asked."""


def parse_vary(items: Sequence[str] | None) -> dict[str, list[str]]:
    """``["players=2,3", "fifth_suit=false,true"]`` → ``{"players": ["2", "3"], …}``."""
    out: dict[str, list[str]] = {}
    for item in items or []:
        key, sep, values = item.partition("=")
        key = key.strip()
        vals = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not key or not vals:
            raise SweepError(f"--vary is written key=v1,v2 (e.g. players=2,3,4), not {item!r}")
        if key in out:
            raise SweepError(f"--vary {key} is given twice")
        out[key] = vals
    return out


@dataclass(frozen=True)
class Cell:
    """One variant: its values of the varied keys, and where its results live."""

    values: dict[str, str]
    folder: str

    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.values.items()) or "default"


def cell_folder(values: Mapping[str, str]) -> str:
    """A folder name that says what the cell is (``players-3__fifth_suit-true``)."""
    if not values:
        return "cell-default"
    parts = [f"{k}-{v}" for k, v in values.items()]
    return "cell-" + re.sub(r"[^A-Za-z0-9_.=-]", "_", "__".join(parts))


def grid(vary: Mapping[str, Sequence[str]]) -> list[Cell]:
    keys = list(vary)
    cells = []
    for combo in itertools.product(*(vary[k] for k in keys)):
        values = dict(zip(keys, combo, strict=True))
        cells.append(Cell(values, cell_folder(values)))
    return cells


def plan_cells(
    game: str,
    specs: Sequence[str],
    games: int,
    vary: Mapping[str, Sequence[str]],
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    trace: bool = True,
) -> list[tuple[Cell, Plan]]:
    """Every cell's plan, all checked before anything is played."""
    out = []
    for cell in grid(vary):
        opts = dict(options or {})
        n = players
        for key, value in cell.values.items():
            if key == PLAYERS:
                try:
                    n = int(value)
                except ValueError:
                    raise SweepError(f"players is a whole number, not {value!r}") from None
            else:
                opts[key] = value
        try:
            plan = make_plan(game, specs, games, seed=seed, options=opts, players=n, trace=trace)
        except DecklabError as exc:
            raise SweepError(f"cell {cell.label()}: {exc}") from None
        out.append((cell, plan))
    return out


@dataclass
class SweepSummary:
    out: Path
    cells: list[tuple[Cell, SimulationSummary]]
    skipped: int


def sweep(
    game: str,
    specs: Sequence[str],
    games: int,
    vary: Mapping[str, Sequence[str]],
    out: Path,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    backend: Backend = LOCAL,
    progress: bool = False,
    trace: bool = True,
    stop_after: int | None = None,
) -> SweepSummary:
    """Run (or resume) every cell of the grid into ``out``.

    ``stop_after`` plays at most that many batches in all (tests interrupt with it).
    """
    cells = plan_cells(
        game, specs, games, vary, seed=seed, options=options, players=players, trace=trace
    )
    _write_index(out, game, specs, games, vary, seed, options, players, cells)
    results = []
    skipped = 0
    budget = stop_after
    for cell, plan in cells:
        folder = out / cell.folder
        complete = (folder / "manifest.json").exists() and RunFolder.open(
            folder, plan
        ).is_complete()
        skipped += complete
        if budget is not None and budget <= 0 and not complete:
            break
        before = 0 if complete else len(RunFolder.open(folder, plan).finished())
        summary = run_plan(
            plan,
            folder,
            backend=backend,
            progress=progress and not complete,
            stop_after=budget,
            title=cell.label(),
        )
        if budget is not None and not complete:
            budget -= len(RunFolder(folder, plan).finished()) - before
        results.append((cell, summary))
    return SweepSummary(out, results, skipped)


def _write_index(
    out: Path,
    game: str,
    specs: Sequence[str],
    games: int,
    vary: Mapping[str, Sequence[str]],
    seed: int,
    options: Mapping[str, Any] | None,
    players: int | None,
    cells: Sequence[tuple[Cell, Plan]],
) -> None:
    body = {
        "kind": "sweep",
        "game": game,
        "specs": list(specs),
        "games": games,
        "vary": {k: list(v) for k, v in vary.items()},
        "seed": seed,
        "options": dict(options or {}),
        "players": players,
        "decklab_version": decklab.__version__,
        "cells": [{"values": c.values, "folder": c.folder, "key": p.key()} for c, p in cells],
    }
    index = out / SWEEP
    if index.exists():
        old = json.loads(index.read_text(encoding="utf-8"))
        if old.get("cells") != body["cells"]:
            raise SweepError(
                f"{out} holds a different sweep: choose another --out, or delete it to start over"
            )
        return
    if out.exists() and any(out.iterdir()):
        raise SweepError(f"{out} is not empty and holds no decklab sweep: choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    tmp = index.with_suffix(".tmp")
    tmp.write_text(json.dumps(body, indent=2), encoding="utf-8")
    os.replace(tmp, index)


def read_sweep(out: Path) -> list[Cell]:
    """The cells of a sweep folder, in grid order."""
    data = json.loads((out / SWEEP).read_text(encoding="utf-8"))
    return [Cell(dict(c["values"]), c["folder"]) for c in data["cells"]]
