"""``decklab skill``: the skill trace, TAG's skill ladder — how much does skill matter?

For each budget b of a doubling ladder (``--budgets 8,16,32,64``) the agent at
budget b plays the same agent at b/2 (seats alternate, duplicate deals), and
the trace is the stronger one's win rate as b grows, against the 1/n an equal
would get. A game where the trace stays high at large budgets rewards skill
all the way up; one where it falls to 1/n quickly is mostly luck (or is solved
by small budgets). Each rung is an ordinary simulation folder under
``DIR/rung-b``, so the run resumes like any other.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import decklab
from decklab.bots.spec import format_spec, parse_spec
from decklab.engine.errors import DecklabError
from decklab.lab import metrics
from decklab.lab.runner import LOCAL, MANIFEST, Backend, make_plan
from decklab.lab.simulate import run_plan

SKILL = "skill.json"


class SkillError(DecklabError):
    """A skill trace that cannot be run as asked."""


def rung_specs(agent: str, param: str, budget: int) -> tuple[str, str]:
    """The stronger and the weaker spec of one rung: ``param=budget`` and ``param=budget/2``."""
    name, params = parse_spec(agent)
    strong = format_spec(name, {**params, param: str(budget)})
    weak = format_spec(name, {**params, param: str(max(1, budget // 2))})
    return strong, weak


def skill_trace(
    game: str,
    agent: str,
    param: str,
    budgets: Sequence[int],
    games: int,
    out: Path,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    backend: Backend = LOCAL,
    progress: bool = False,
) -> dict[str, Any]:
    """Run (or resume) every rung into ``out`` and return the trace."""
    if not budgets or any(b < 2 for b in budgets):
        raise SkillError("--budgets are whole numbers of at least 2, e.g. 8,16,32")
    plans = []
    for b in budgets:
        strong, weak = rung_specs(agent, param, b)
        plans.append(
            (b, make_plan(game, [strong, weak], games, seed=seed, options=options, players=players))
        )
    index = {
        "kind": "skill",
        "game": game,
        "agent": agent,
        "param": param,
        "budgets": list(budgets),
        "games": games,
        "seed": seed,
        "options": dict(options or {}),
        "players": players,
        "decklab_version": decklab.__version__,
    }
    path = out / SKILL
    if path.exists():
        old = json.loads(path.read_text(encoding="utf-8"))
        if {k: v for k, v in old.items() if k != "decklab_version"} != {
            k: v for k, v in index.items() if k != "decklab_version"
        }:
            raise SkillError(f"{out} holds a different skill trace: choose another --out")
    else:
        if out.exists() and any(out.iterdir()):
            raise SkillError(f"{out} is not empty and holds no skill trace: choose another --out")
        out.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(index, indent=2), encoding="utf-8")
        os.replace(tmp, path)
    for b, plan in plans:
        run_plan(
            plan,
            out / f"rung-{b}",
            backend=backend,
            progress=progress,
            title=f"{param}={b} vs {b // 2}",
        )
    return trace_numbers(out)


def trace_numbers(out: Path) -> dict[str, Any]:
    """The trace of a skill folder: per rung, the stronger agent's win rate and rating gap."""
    index = json.loads((out / SKILL).read_text(encoding="utf-8"))
    rungs = []
    for b in index["budgets"]:
        folder = out / f"rung-{b}"
        if not (folder / MANIFEST).exists():
            continue
        rows = metrics.load(folder)
        if not rows.games:
            continue
        rates = metrics.agent_rates(rows)
        elo = metrics.ratings(rows, samples=100, seed=index["seed"])
        rung: dict[str, Any] = {
            "budget": b,
            "games": rows.games,
            "players": rows.players,
            "equal_share": 1.0 / rows.players,
            "strong": rates[0],
            "weak": rates[1] if len(rates) > 1 else None,
        }
        if len(elo) == 2:
            rung["elo_gap"] = elo[0]["elo"] - elo[1]["elo"]
        rungs.append(rung)
    cleaned: dict[str, Any] = metrics.finite({**index, "rungs": rungs})
    return cleaned
