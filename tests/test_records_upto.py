"""Item 2: ``replay --upto N`` works at every N of every record, chance lines included.

Semantics (docs/records.md, "Counting lines"): N counts lines of ``actions``, chance
lines included — as do error indexes and ``actions_applied``. An action line and the
chance lines after it are applied together or not at all, so a cut inside that group
ends just before the action, never with the action half-applied.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from decklab.cli import app
from decklab.engine import records
from decklab.engine.errors import RecordError
from decklab.engine.state import ALL

RECORDS = Path(__file__).parent / "records"
ALL_RECORDS = sorted(RECORDS.glob("*.json"))
runner = CliRunner()


def _groups(actions: list[str]) -> list[int]:
    """The line counts at which a group (an action and its chance lines) ends."""
    ends = []
    for i, line in enumerate(actions):
        if not line.startswith("chance ") and i > 0:
            ends.append(i)
    ends.append(len(actions))
    return [0, *ends]


@pytest.mark.parametrize("path", ALL_RECORDS, ids=[p.stem for p in ALL_RECORDS])
def test_item2_upto_every_cut_point_of_every_record(path: Path) -> None:
    record = records.load(path)
    actions = record.get("actions", [])
    boundaries = _groups(actions)
    full_error: RecordError | None = None
    try:
        records.replay(record)
    except RecordError as exc:
        full_error = exc
    for n in range(len(actions) + 1):
        try:
            state, applied = records.replay(record, limit=n)
        except RecordError as exc:
            # Only an illegal record fails, and only once the cut reaches its bad line.
            assert full_error is not None and exc.index == full_error.index
            assert exc.index is not None and exc.index < n
            continue
        # Never past N, never inside a group: the largest group boundary ≤ N.
        assert applied == max(b for b in boundaries if b <= n), (n, applied)
        # The state is exactly the record cut at `applied` lines, replayed in full.
        cut = dict(record, actions=actions[:applied])
        again, count = records.replay(cut)
        assert count == applied
        assert again.view(ALL) == state.view(ALL) and again.history == state.history
        state.check_invariants()


@pytest.mark.parametrize("path", ALL_RECORDS, ids=[p.stem for p in ALL_RECORDS])
def test_item2_replay_command_upto_every_cut_point(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    n_lines = len(record.get("actions", []))
    bad = "illegal" in path.stem
    for n in range(n_lines + 1):
        result = runner.invoke(app, ["replay", str(path), "--upto", str(n), "--json"])
        out = json.loads(result.stdout)
        if result.exit_code == 2 and bad:
            assert out["error"]["index"] < n
            continue
        assert result.exit_code == 0, (n, result.output)
        assert out["actions_applied"] <= n


def test_item2_lonely_face_coin_whole_record_and_cut_before_the_coin() -> None:
    """The issue's cases: --upto 3 (the whole record) replays; --upto 2 cuts inside
    "p2 pass" + "chance coin p2", so it stops before p2's pass (1 line applied)."""
    path = str(RECORDS / "lonely-face_coin.json")
    whole = json.loads(runner.invoke(app, ["replay", path, "--upto", "3", "--json"]).stdout)
    assert whole["actions_applied"] == 3 and whole["terminal"] and whole["winners"] == ["p2"]
    cut = json.loads(runner.invoke(app, ["replay", path, "--upto", "2", "--json"]).stdout)
    assert cut["actions_applied"] == 1 and cut["to_act"] == ["p2"]


def test_item2_lonely_face_die_all_15_cut_points_replay() -> None:
    path = str(RECORDS / "lonely-face_die.json")
    ok = [
        runner.invoke(app, ["replay", path, "--upto", str(n), "--json"]).exit_code == 0
        for n in range(15)
    ]
    assert all(ok)


def test_item2_actions_applied_and_error_index_count_chance_lines() -> None:
    """All three counts are lines of ``actions``: the die record's 14 lines (5 chance)."""
    record = records.load(RECORDS / "lonely-face_die.json")
    _, applied = records.replay(record)
    assert applied == len(record["actions"]) == 14
    bad = dict(record, actions=[*record["actions"][:4], "p1 take z9 z9"])
    with pytest.raises(RecordError) as info:
        records.replay(bad)
    assert info.value.index == 4  # line 4 counting the two chance lines before it


def test_item9_negative_upto_is_refused() -> None:
    path = str(RECORDS / "lonely-face_die.json")
    result = runner.invoke(app, ["replay", path, "--upto", "-1"])
    assert result.exit_code == 2 and "--upto" in result.output and "0 or more" in result.output
    as_json = runner.invoke(app, ["replay", path, "--upto", "-3", "--json"])
    assert as_json.exit_code == 2 and "--upto" in json.loads(as_json.stdout)["error"]["reason"]
    with pytest.raises(RecordError):
        records.replay(records.load(RECORDS / "lonely-face_die.json"), limit=-1)
