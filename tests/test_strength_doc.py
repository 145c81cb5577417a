"""docs/strength.md stays what its runs say: it is rendered from the recorded runs and the
prose template, a run records its own wall and CPU time, and a run whose command changed
is shown as stale rather than with the old numbers."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

DOCS = Path(__file__).parent.parent / "docs"
HERE = DOCS / "strength"


@pytest.fixture(scope="module")
def build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_build", DOCS / "strength" / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["strength_build"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_strength_md_is_up_to_date(build: ModuleType) -> None:
    first = build.render()
    assert build.render() == first, "rendering twice gave two pages"
    assert (DOCS / "strength.md").read_text(encoding="utf-8") == first, (
        "docs/strength.md is stale: edit docs/strength.src.md, then run "
        "`python docs/strength/build.py render`"
    )


def test_every_run_has_a_place_on_the_page_and_every_record_a_run(build: ModuleType) -> None:
    every = build.runs()
    ids = [r.id for r in every]
    assert len(ids) == len(set(ids)), "two runs share an id"
    template = build.TEMPLATE.read_text(encoding="utf-8")
    for section in {r.section for r in every}:
        assert f"<!-- runs: {section} -->" in template, f"section {section} is never shown"
    recorded = {p.stem for p in build.RUNS.glob("*.json")} - {"estimates"}
    assert recorded <= set(ids), f"records of runs no longer listed: {recorded - set(ids)}"
    for run in every:
        record = build.load(run)
        if record is not None:
            assert record["id"] == run.id


@pytest.fixture(scope="module")
def tiny(build: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    """Four games of greedy against random, run end to end into a temporary folder."""
    runs_dir = tmp_path_factory.mktemp("runs")
    run = build._arena("tiny", "tiny-arena", "facade", 2, ["greedy", "random"], 4, "tiny match")
    assert build.state(run, runs_dir) == "missing"
    build.execute(run, runs_dir, tmp_path_factory.mktemp("work"))
    return run, runs_dir


def _template(tmp_path: Path) -> Path:
    page = tmp_path / "page.src.md"
    page.write_text("# a page\n\n<!-- runs: tiny -->\n\nthe end\n", encoding="utf-8")
    return page


def test_a_tiny_run_records_its_times_and_renders_a_table(
    build: ModuleType, tiny: tuple[Any, Path], tmp_path: Path
) -> None:
    run, runs_dir = tiny
    record = json.loads((runs_dir / "tiny-arena.json").read_text(encoding="utf-8"))
    assert record["command"] == run.command
    assert record["command"].startswith("decklab arena facade -n 2 -p greedy,random -g 4 ")
    assert record["wall_s"] > 0
    assert record["cpu_s"] > 0, "the child's CPU time was not measured"
    assert record["machine"]["cpus"] >= 1 and record["machine"]["build"] in ("pure", "compiled")
    assert len(record["commit"]["sha"]) == 40
    assert record["result"]["games"] == 4
    assert build.state(run, runs_dir) == "done"

    page = build.render(_template(tmp_path), runs_dir, [run])
    assert page.startswith("# a page\n\n| game (seats) |") and page.endswith("\nthe end\n")
    row = next(line for line in page.splitlines() if "tiny match" in line)
    assert "not run yet" not in row
    first = record["result"]["per_agent"][0]
    assert f"{100 * first['win_rate']:.1f}%" in row
    wall = build._secs(record["wall_s"])
    assert f"| {wall} | {build._secs(record['cpu_s'])} |" in row


def test_a_run_not_made_shows_its_command_and_no_number(build: ModuleType, tmp_path: Path) -> None:
    run = build._arena("tiny", "tiny-arena", "facade", 2, ["greedy", "random"], 4, "tiny match")
    page = build.render(_template(tmp_path), tmp_path, [run])
    row = next(line for line in page.splitlines() if "tiny match" in line)
    assert f"**not run yet**: `{run.command}`" in row
    assert "%" not in row
    assert "`tiny-arena`" in build.remaining(tmp_path, [run])


def test_a_changed_command_marks_the_run_stale(
    build: ModuleType, tiny: tuple[Any, Path], tmp_path: Path
) -> None:
    _, runs_dir = tiny
    changed = build._arena("tiny", "tiny-arena", "facade", 2, ["greedy", "random"], 6, "tiny match")
    assert build.state(changed, runs_dir) == "stale"
    page = build.render(_template(tmp_path), runs_dir, [changed])
    row = next(line for line in page.splitlines() if "tiny match" in line)
    assert "stale" in row and changed.command in row
    assert "%" not in row, "a stale run must not show the old command's numbers"
    assert "`tiny-arena`" in build.remaining(runs_dir, [changed])


def test_a_failing_command_records_nothing(build: ModuleType, tmp_path: Path) -> None:
    bad = build._arena("tiny", "bad", "no-such-game", 2, ["greedy"], 4, "bad")
    with pytest.raises(RuntimeError, match="bad failed"):
        build.execute(bad, tmp_path / "runs", tmp_path / "work")
    assert not (tmp_path / "runs").exists()


def test_a_run_cut_short_resumes_and_its_record_adds_up_the_sittings(
    build: ModuleType, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from decklab.cli import app
    from decklab.lab.runner import finished_batches, part_path

    run = build._arena("tiny", "cut-arena", "facade", 2, ["greedy", "random"], 32, "cut")
    whole = build.execute(run, tmp_path / "whole", tmp_path / "work-whole")
    # the first sitting: it starts, finishes some batches and dies
    work = tmp_path / "work"
    first = build.Sitting.resume(work / run.id, run, "2026-12-03T11:00:00+00:00")
    assert first.sittings == 0 and first.cpu_s == 0
    games = work / run.id / "games"
    out = CliRunner().invoke(app, [*run.argv[1:], "--out", str(games)])
    assert out.exit_code == 0, out.output
    for index in (1, 3, 8):  # unfinished when it died
        part_path(games, index).unlink()
    kept = finished_batches(games)
    assert len(kept) == 13
    to_go = sum(e["cpu_seconds"] for e in kept.values()) / 13 * 3
    assert (
        build.kept(run, work)
        == f"  [kept: 13 of 16 batches, about {build._secs(to_go)} of CPU to go]"
    )
    record = build.execute(run, tmp_path / "runs", work)
    assert record["sittings"] == 2
    assert record["started"] == "2026-12-03T11:00:00+00:00", "the first sitting's start decides"
    assert record["cpu_s"] >= sum(e["cpu_seconds"] for e in kept.values())
    assert record["result"]["per_agent"] == whole["result"]["per_agent"]
    assert record["result"]["per_seat"] == whole["result"]["per_seat"]
    assert not (work / run.id).exists(), "a finished run leaves no kept games behind"
    assert "sittings" not in whole


def test_kept_games_of_another_command_or_of_bots_since_changed_are_dropped(
    build: ModuleType, tmp_path: Path
) -> None:
    run = build._arena("tiny", "kept", "corporation", 4, ["beginner"], 8, "kept")
    folder = tmp_path / run.id

    def keep(started: str, command: str) -> Path:
        folder.mkdir(exist_ok=True)
        note = {"command": command, "started": started, "sittings": 1}
        (folder / "sitting.json").write_text(json.dumps(note), encoding="utf-8")
        games = folder / "games"
        games.mkdir(exist_ok=True)
        (games / "batches.jsonl").write_text("", encoding="utf-8")
        return games

    keep("2026-12-03T11:00:00+00:00", run.command)
    assert build.Sitting.resume(folder, run, "now").sittings == 1  # kept
    keep("2026-12-03T11:00:00+00:00", run.command + " --seed 2")
    assert build.Sitting.resume(folder, run, "now").sittings == 0
    assert not (folder / "games").exists()
    # the beginner's Corporation ratings changed on 2026-12-03 at 07:53
    keep("2026-12-03T07:00:00+00:00", run.command)
    again = build.Sitting.resume(folder, run, "now")
    assert again.sittings == 0 and again.started == "now"
    assert not (folder / "games").exists()


def test_an_estimate_is_a_short_timing_scaled_to_the_full_count(
    build: ModuleType, tmp_path: Path
) -> None:
    run = build._arena("tiny", "tiny-arena", "facade", 2, ["greedy", "random"], 40, "tiny match")
    est = build.estimate(run, 120, 0.0)
    assert est["command"] == run.command and not est["lower_bound"]
    # one deal (both rotations), or eight games where one deal is mostly start-up
    assert (est["probe"], est["probe_games"]) in (("-g 1", 2), ("-g 8", 8))
    assert est["cpu_s"] == pytest.approx(est["probe_cpu_s"] * 40 / est["probe_games"], abs=0.2)
    (tmp_path / "estimates.json").write_text(json.dumps({run.id: est}), encoding="utf-8")
    page = build.render(_template(tmp_path), tmp_path, [run])
    assert f"about {build._secs(est['cpu_s'])} CPU" in page
    assert f"| `tiny-arena` | {build._secs(est['cpu_s'])} |" in build.remaining(tmp_path, [run])
    changed = build._arena("tiny", "tiny-arena", "facade", 2, ["greedy"], 40, "tiny match")
    assert "not estimated" in build.remaining(tmp_path, [changed]), "an estimate of another command"


def test_the_imported_records_are_the_earlier_files_unchanged(
    build: ModuleType, tmp_path: Path
) -> None:
    made = build.adopt_legacy(tmp_path)
    assert len(made) == 22  # 21 greedy fairness tables and the Cabin's 2,000 deals
    kept = 0
    for rid in made:
        fresh = json.loads((tmp_path / f"{rid}.json").read_text(encoding="utf-8"))
        assert fresh["cpu_s"] is None, "no CPU time was recorded then: none may be shown"
        now = json.loads((build.RUNS / f"{rid}.json").read_text(encoding="utf-8"))
        if now["cpu_s"] is not None:
            # Made again since by `build.py run` (the Cabin's expert changed): a record
            # of its own, with its times and commit, of the same command.
            assert now["command"] == fresh["command"] and now["commit"]["sha"]
            continue
        assert fresh == now
        kept += 1
    assert kept >= 21, "the imported greedy fairness tables are gone"
    one = json.loads((tmp_path / "fairness-notorious-greedy-5.json").read_text(encoding="utf-8"))
    assert one["result"]["tables"][0]["p_value"] == pytest.approx(0.0077, abs=1e-4)


def test_cheat_runs_take_the_experts_guidance_root_race_included(build: ModuleType) -> None:
    """``cheat`` vs ``expert`` measures what seeing the cards is worth only if the two
    search alike: the guidance given to ``cheat`` is the expert's, ``root=race`` and all."""
    from decklab.bots.ismcts import GUIDED

    assert dict(kv.split("=") for kv in build.GUIDE.split(",")) == GUIDED
    cheats = [r for r in build.runs() if r.section == "cheat"]
    assert cheats and all(f"cheat:iters=192,{build.GUIDE}," in r.command for r in cheats)


def _seat(label: str, games: int, low: float, high: float) -> dict[str, Any]:
    """A rate as the arena's JSON writes it (only the fields the table reads matter)."""
    rate = (low + high) / 2
    return {
        "label": label,
        "games": games,
        "wins": rate * games,
        "win_rate": rate,
        "win_low": low,
        "win_high": high,
        "mean_score": 0.0,
        "score_low": 0.0,
        "score_high": 0.0,
    }


def test_the_seats_table_judges_each_seat_against_twice_the_fair_share(
    build: ModuleType, tmp_path: Path
) -> None:
    """Planted records: at 4 players 2× fair is 50%, so an interval from 50% is met, one
    across 50% undecided and one wholly below not met; the overall line names the seats
    that are not met, and a size not made is shown as such, not counted."""
    four = build._arena("seats", "s4", "corporation", 4, ["expert"] + ["greedy"] * 3, 8, "x")
    five = build._arena("seats", "s5", "corporation", 5, ["expert"] + ["greedy"] * 4, 10, "x")
    seats = [
        _seat("p1", 2, 0.50, 0.90),
        _seat("p2", 2, 0.60, 0.95),
        _seat("p3", 2, 0.30, 0.70),
        _seat("p4", 2, 0.10, 0.49),
    ]
    result = {
        "agents": ["expert", "greedy"],
        "per_agent": [_seat("expert", 8, 0.4, 0.8)],
        "per_agent_seat": {"expert": seats, "greedy": seats},
    }
    record = {"id": "s4", "command": four.command, "started": "2099-01-01T00:00:00+00:00"}
    build._write(tmp_path / "s4.json", record | {"result": result})
    page = build.section("seats", tmp_path, [four, five])
    row = next(line for line in page.splitlines() if line.startswith("| 4 |"))
    assert "| 4 | 2 | 50.0% | 60.0% (40.0% – 80.0%) |" in row
    assert "p1 70.0 (50.0–90.0) met; p2 77.5 (60.0–95.0) met;" in row
    assert "p3 50.0 (30.0–70.0) ?; p4 29.5 (10.0–49.0) not met |" in row
    assert "| 2 of 4; ?: p3; not met: p4 |" in row
    assert "not run yet" in next(line for line in page.splitlines() if line.startswith("| 5 |"))
    overall = page.splitlines()[-1]
    assert overall.startswith("Overall (1 of 2 table sizes made: 4 players): 2 of 4 seats met,")
    assert "p3 at 4 (?), p4 at 4 (not met)" in overall
    assert build.seat_verdict(0.2, 0.3, 0.2) == "met" and build.seat_verdict(0.1, 0.19, 0.2) == (
        "not met"
    )


def test_each_level_meets_the_next_in_every_game(build: ModuleType) -> None:
    levels = [r for r in build.runs() if r.section == "levels"]
    pairs = [("beginner", "casual"), ("casual", "strong"), ("strong", "expert")]
    games = {"facade": 2, "lonely-face": 2, "cabin": 1, "corporation": 4, "notorious": 4}
    assert {r.id for r in levels} == {f"levels-{g}-{a}-{b}" for g in games for a, b in pairs}, (
        "a game or a pair of levels is missing"
    )
    for run in levels:
        assert run.seats == games[run.game]
        assert f" -n {run.seats} -p {run.label.replace(' vs ', ',')} -g " in run.command


def _agent(label: str, win: tuple[float, float, float], score: tuple[float, float, float]) -> Any:
    return {
        "label": label,
        "win_rate": win[0],
        "win_low": win[1],
        "win_high": win[2],
        "mean_score": score[0],
        "score_low": score[1],
        "score_high": score[2],
    }


def test_a_levels_row_says_which_level_is_ahead(build: ModuleType) -> None:
    table = build._arena("levels", "t", "notorious", 4, ["casual", "strong"], 8, "casual vs strong")
    result = {
        "games": 400,
        "deals": 100,
        "per_agent": [
            _agent("casual", (0.19, 0.16, 0.22), (0, 0, 0)),
            _agent("strong", (0.31, 0.28, 0.34), (0, 0, 0)),
        ],
    }
    row = build._levels_body(table, result)
    assert "19.0% (16.0% – 22.0%)" in row and "| 25% | stronger ahead |" in row
    result["per_agent"][0] = _agent("casual", (0.24, 0.21, 0.27), (0, 0, 0))
    assert "| not separated |" in build._levels_body(table, result)
    # the Cabin, alone: fewer squid points are better, and the verdict is the paired rating
    solo = build._arena("levels", "c", "cabin", 1, ["strong", "expert"], 8, "strong vs expert")
    cabin = {
        "games": 200,
        "deals": 100,
        "per_agent": [
            _agent("strong", (0, 0, 0), (13.0, 12.0, 14.0)),
            _agent("expert", (0, 0, 0), (12.5, 11.5, 13.5)),
        ],
        "ratings": [
            {"spec": "strong", "elo": -20, "low": -60, "high": 15},
            {"spec": "expert", "elo": 20, "low": -15, "high": 60},
        ],
    }
    row = build._levels_body(solo, cabin)
    assert "200 (100 deals)" in row and "+0.50 for the weaker" in row and "not separated" in row
    cabin["ratings"][0].update(low=-90, high=-10)
    cabin["ratings"][1].update(low=10, high=90)
    assert "stronger ahead (paired)" in build._levels_body(solo, cabin)


def test_the_fast_bots_volume_runs_back_the_summary_line(build: ModuleType) -> None:
    """Issue 20's item 3 says `fast` beats greedy in Lonely Face at 3 and 4 players on
    the long runs: each run's interval lies above the fair share, and the summary
    quotes the run's own rate, interval and game count."""
    summary = (DOCS / "strength.src.md").read_text(encoding="utf-8")
    item = summary[summary.index("3. **A fast bot.**") : summary.index("4. **Levels**")]
    item = " ".join(item.split())
    volume = [r for r in build.runs() if r.section == "volume"]
    assert {r.seats for r in volume} == {3, 4}
    for run in volume:
        record = build.load(run)
        assert record is not None, f"{run.id} is not made"
        first = record["result"]["per_agent"][0]
        assert first["label"] == "fast"
        assert first["win_low"] > 1 / run.seats, f"{run.id}: not above the fair share"
        games = f"{record['result']['games']:,}"
        quoted = (
            f"{100 * first['win_rate']:.1f}% ({100 * first['win_low']:.1f}–"
            f"{100 * first['win_high']:.1f}) of {games}"
        )
        assert quoted in item, f"the summary does not quote {quoted!r}"


def _fairness_record(wins: list[float], games: int) -> dict[str, Any]:
    seats = [{"label": f"p{i + 1}", "games": games, "wins": w} for i, w in enumerate(wins)]
    return {"tables": [{"players": len(wins), "games": games, "seats": seats}]}


def test_a_second_seed_is_pooled_with_the_first_by_adding_each_seats_wins(
    build: ModuleType, tmp_path: Path
) -> None:
    """Planted records: 30–10 on the first seed and 20–20 on the second pool to 50–30 of
    80 games, χ² = (10² + 10²) / 40 = 5.0 on 1 dof, p = 0.025 (by hand): no seat effect
    at the 0.01 line, though the first seed alone (χ² = 10, p = 0.0016) had one. A
    second seed whose first is not made is left out, not pooled with nothing."""
    every = [r for r in build.runs() if r.id.startswith("fairness-")]
    first = next(r for r in every if r.id == "fairness-facade-expert-2")
    second = next(r for r in every if r.id == f"fairness-facade-expert-2-seed{build.SECOND_SEED}")
    lonely = next(r for r in every if r.section == "fairness-second" and r.game == "notorious")
    for run, wins in ((first, [30.0, 10.0]), (second, [20.0, 20.0]), (lonely, [5.0, 5.0, 5.0])):
        record = {"id": run.id, "command": run.command, "result": _fairness_record(wins, 40)}
        build._write(tmp_path / f"{run.id}.json", record)
    text = build.pooled_fairness([second, lonely], every, tmp_path)
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert lines == [
        "- Façade at 2, seeds 2026 and 2027 pooled (80 games): 62.5, 37.5%; χ² = 5.00, 1 dof,"
        " p = 0.025: no seat effect."
    ]
    assert build.pooled_fairness([lonely], every, tmp_path).endswith(
        "no second-seed table is made yet."
    )
    # a third seed joins the same line: 70-50 of 120, χ² = (10² + 10²) / 60 = 3.33, p = 0.068
    third = next(r for r in every if r.id == "fairness-facade-expert-2-seed2028")
    record = {
        "id": third.id,
        "command": third.command,
        "result": _fairness_record([20.0, 20.0], 40),
    }
    build._write(tmp_path / f"{third.id}.json", record)
    text = build.pooled_fairness([second, third, lonely], every, tmp_path)
    assert [line for line in text.splitlines() if line.startswith("- ")] == [
        "- Façade at 2, seeds 2026, 2027 and 2028 pooled (120 games): 58.3, 41.7%;"
        " χ² = 3.33, 1 dof, p = 0.068: no seat effect."
    ]


def test_the_budget_plot_draws_the_budget_tables_records(build: ModuleType) -> None:
    """Every budget run made is a point of its game's curve with the record's own rate and
    interval (the Cabin: mean squid points), and its CPU a game; the page embeds the plot."""
    pytest.importorskip("matplotlib")
    sys.path.insert(0, str(HERE))
    try:
        import budget_plot
    finally:
        sys.path.remove(str(HERE))
    data = budget_plot.curves()
    made = [r for r in build.runs() if r.section == "budget" and build.state(r) == "done"]
    assert sum(len(e["points"]) for e in data.values()) == len(made) > 0
    for run in made:
        record = build.load(run)
        first = record["result"]["per_agent"][0]
        entry = data[run.game]
        budget = int(run.id.rsplit("-", 1)[1])
        point = next(p for p in entry["points"] if p[0] == budget)
        keys = (
            ("mean_score", "score_low", "score_high")
            if run.seats == 1
            else ("win_rate", "win_low", "win_high")
        )
        assert point[1:] == tuple(first[k] for k in keys)
        assert entry["fair"] == (None if run.seats == 1 else 1 / run.seats)
        cpu = next(c for c in entry["cpu"] if c[0] == budget)
        assert cpu[1] == pytest.approx(record["cpu_s"] / record["result"]["games"])
        assert cpu[2] == (record["machine"]["build"] == "pure")
    page = (DOCS / "strength.md").read_text(encoding="utf-8")
    assert "](strength/budget.png)" in page
    assert (HERE / "budget.png").exists()


def test_a_record_made_before_a_change_to_its_games_bots_is_outdated(
    build: ModuleType, tmp_path: Path
) -> None:
    """Made before the change, a run that plays a changed bot shows no number and is made
    again; one that plays only greedy and random (unchanged) still counts, and so does a
    run of another game or one made after the change."""
    game, when = build.BOT_CHANGES[0].game, build.BOT_CHANGES[0].when
    every = build.runs()
    expert = next(r for r in every if r.game == game and r.section == "fairness-expert")
    greedy_only = next(r for r in every if r.game == game and r.section == "fairness-greedy")
    other = next(r for r in every if r.game != game and r.section == "fairness-expert")
    before, after = "2026-01-01T00:00:00+00:00", "2099-01-01T00:00:00+00:00"
    result = _fairness_record([1.0, 2.0, 3.0], 6)
    for run, started in ((expert, before), (greedy_only, before), (other, before)):
        record = {"id": run.id, "command": run.command, "started": started, "result": result}
        build._write(tmp_path / f"{run.id}.json", record)
    assert build.state(expert, tmp_path) == "outdated"
    assert build.state(greedy_only, tmp_path) == "done"
    assert build.state(other, tmp_path) == "done"
    page = build.section("fairness-expert", tmp_path, [expert])
    row = next(line for line in page.splitlines() if "outdated" in line)
    assert expert.command in row and "16.7" not in row, "an outdated record shows no number"
    assert f"`{expert.id}`" in build.remaining(tmp_path, [expert])
    record = {"id": expert.id, "command": expert.command, "started": after, "result": result}
    build._write(tmp_path / f"{expert.id}.json", record)
    assert build.state(expert, tmp_path) == "done"
    assert when < after


def test_a_change_to_the_search_at_tables_of_more_than_two_spares_the_rest(
    build: ModuleType, tmp_path: Path
) -> None:
    """The margin-scale change touches searching agents at three seats or more: a
    two-player expert table, a fast-bot match and a CPU timing made before it still hold."""
    change = next(c for c in build.BOT_CHANGES if c.game is None)
    assert change.more_than == 2
    every = build.runs()
    touched = next(r for r in every if r.id == "fairness-corporation-expert-4")
    two = next(r for r in every if r.id == "fairness-lonely-face-expert-2")
    fast = next(r for r in every if r.id == "vs-greedy-corporation-6-fast")
    timing = next(r for r in every if r.id == "cpu-corporation")
    before = "2026-12-02T21:00:00+00:00"  # before the change
    assert before < change.when
    for run in (touched, two, fast, timing):
        record = {"id": run.id, "command": run.command, "started": before, "result": {}}
        build._write(tmp_path / f"{run.id}.json", record)
    assert build.state(touched, tmp_path) == "outdated"
    assert [build.state(r, tmp_path) for r in (two, fast, timing)] == ["done"] * 3


def test_the_levels_summary_quotes_the_records(build: ModuleType) -> None:
    """Issue 20's item 4 quotes two levels' runs: Lonely Face's casual → strong, said to be
    separated (the weaker level's interval below an even game), and Notorious's strong →
    expert, said not to be (the weaker level's interval holds the fair share). Each rate
    quoted is the record's own, and each verdict follows from the record's interval."""
    summary = (DOCS / "strength.src.md").read_text(encoding="utf-8")
    item = summary[summary.index("4. **Levels**") : summary.index("5. **Hints that explain**")]
    item = " ".join(item.split())
    runs = {r.id: r for r in build.runs() if r.section == "levels"}

    def agents(rid: str) -> list[dict[str, Any]]:
        record = build.load(runs[rid])
        assert record is not None, f"{rid} is not made"
        found: list[dict[str, Any]] = record["result"]["per_agent"]
        return found

    weaker = agents("levels-lonely-face-casual-strong")[0]
    assert weaker["label"] == "casual" and weaker["win_high"] < 0.5
    quoted = (
        f"{100 * weaker['win_rate']:.1f}%, {100 * weaker['win_low']:.1f}–"
        f"{100 * weaker['win_high']:.1f}"
    )
    assert quoted in item, quoted
    strong, expert = agents("levels-notorious-strong-expert")
    assert strong["win_low"] < 0.25 < strong["win_high"], "the summary says not separated"
    assert f"{100 * strong['win_rate']:.1f}% a seat against {100 * expert['win_rate']:.1f}%" in item
