"""``decklab arena --ray``: the arena on Ray through the lab's runner, the same report as local."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from decklab.cli import app
from decklab.lab.arena import ArenaReport, run_arena

QUICK = {"target": 12}
runner = CliRunner()


def _without_timing(report: ArenaReport) -> dict[str, object]:
    data = report.to_dict(include_games=True)
    data.pop("seconds_per_decision")
    return data


def test_arena_on_a_local_ray_reports_what_local_workers_report(local_ray: object) -> None:
    args = dict(options=QUICK, players=4, progress=False, seed=5, keep_results=True)
    specs = ["greedy", "random"]
    local = run_arena("corporation", specs, 40, workers=1, **args)  # type: ignore[arg-type]
    on_ray = run_arena("corporation", specs, 40, ray="local", **args)  # type: ignore[arg-type]
    assert on_ray.games == local.games == 40
    assert _without_timing(on_ray) == _without_timing(local)


def test_arena_sprt_on_a_local_ray_stops_where_local_workers_stop(local_ray: object) -> None:
    """The SPRT reads results in deal order; Ray's batches must come back in that order."""
    args = dict(
        options=QUICK, players=4, progress=False, seed=1, sprt=(0.0, 150.0), keep_results=True
    )
    specs = ["greedy", "random"]
    local = run_arena("corporation", specs, 400, workers=2, **args)  # type: ignore[arg-type]
    on_ray = run_arena("corporation", specs, 400, ray="local", **args)  # type: ignore[arg-type]
    assert local.sprt is not None and local.sprt.accepted is not None and local.stopped_early
    assert _without_timing(on_ray) == _without_timing(local)


def test_arena_command_ray_local_json(local_ray: object) -> None:
    common = ["arena", "corporation", "-p", "greedy,random", "-g", "8", "-n", "4"]
    common += ["-o", "target=12", "--seed", "3", "--json"]
    here = runner.invoke(app, common)
    there = runner.invoke(app, [*common, "--ray", "local"])
    assert here.exit_code == 0, here.output
    assert there.exit_code == 0, there.output
    a, b = json.loads(here.output), json.loads(there.output)
    a.pop("seconds_per_decision")
    b.pop("seconds_per_decision")
    assert a == b and a["games"] == 8


def test_arena_command_refuses_workers_with_ray() -> None:
    result = runner.invoke(
        app, ["arena", "corporation", "-p", "random", "--workers", "2", "--ray", "local"]
    )
    assert result.exit_code == 2
    assert "--workers or --ray" in result.output
