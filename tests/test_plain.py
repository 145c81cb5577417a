"""The line mode (items 3, 4, 5, 8 of issue 9) and the files it writes (item 1)."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from decklab.cli import app
from decklab.engine import records
from decklab.engine.registry import get_game
from decklab.play import stats
from decklab.play.plain import BLANK_LINES, PlainGame
from decklab.play.storage import StorageError, claim_new_file, data_dir
from decklab.play.tui.session import Session

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DECKLAB_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def plain(session: Session, answers: list[str]) -> str:
    out = io.StringIO()
    feed = iter(answers)
    PlainGame(session, out, lambda: next(feed, None)).run()
    return out.getvalue()


def test_item8_plain_defaults_to_the_tables_opponents_hint_why_undo_and_echo(
    tmp_path: Path,
) -> None:
    result = runner.invoke(
        app,
        ["play", "facade", "--plain", "--seed", "3", "-o", "first_bidder=p1"],
        input="hint\nwhy\n1\nundo\nlog\nquit\n",
        env={"DECKLAB_HOME": str(tmp_path)},
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Hint: " in out and "(type why for the figures)" in out
    assert "The figures behind the hint:" in out
    assert "p1 puts a bid card face down on" in out  # the chosen move is echoed
    assert "Undone." not in out or "Nothing to undo" not in out
    saved = sorted((tmp_path / "records").glob("facade-*.json"))
    record = records.load(saved[0])
    assert record["players"] == {"p1": "human", "p2": "greedy"}  # the table's default
    # One card notation throughout: the K1 text that is typed, never suit symbols.
    assert not any(sym in out for sym in "♠♥♦♣★")


@pytest.mark.parametrize("spec", ["ismcts:seed=2,iters=24", "pimc:seed=2,iters=24,dets=3"])
def test_a_plain_search_hint_is_explained_and_why_names_the_next_best(
    tmp_path: Path, spec: str
) -> None:
    """Any agent may give the hints (``hint_spec``): a plain search's hint says what the
    move does and what the next best gives instead; ``why`` has the figures and the next best."""
    session = Session.new(
        get_game("facade"),
        ["human", "greedy"],
        seed=3,
        save_path=tmp_path / "a.json",
        hint_spec=spec,
    )
    out = plain(session, ["hint", "why", "quit"])
    line = next(x for x in out.splitlines() if "Hint: " in x)
    assert "puts your" in line and ("sampled games than" in line or "as good as" in line)
    why = next(x for x in out.splitlines() if "The figures behind the hint:" in x)
    assert spec.split(":")[0].upper() in why and "Next best: bid " in why


def test_item8_plain_undo_takes_back_the_last_solo_move() -> None:
    session = Session.new(get_game("cabin"), seed=4, save_path=None)
    out = plain(session, ["1", "1", "undo", "quit"])
    assert "Undone." in out
    assert len(records.load(session.save_path)["actions"]) == 1


def test_item3_plain_resume_keeps_greedy_opponents_and_the_note(tmp_path: Path) -> None:
    first = Session.new(
        get_game("facade"), ["human", "greedy"], seed=2, save_path=tmp_path / "a.json"
    )
    plain(first, ["1", "quit"])
    original = (tmp_path / "a.json").read_bytes()
    record = json.loads(original)
    record["note"] = "my favourite deal"
    (tmp_path / "a.json").write_text(json.dumps(record))
    original = (tmp_path / "a.json").read_bytes()
    again = Session.resume(records.load(tmp_path / "a.json"))
    assert again.specs == ["human", "greedy"]
    plain(again, ["1", "quit"])
    assert (tmp_path / "a.json").read_bytes() == original  # opened, never rewritten
    saved = records.load(again.save_path)
    assert again.save_path != tmp_path / "a.json"
    assert saved["players"]["p2"] == "greedy" and saved["note"] == "my favourite deal"


def test_item3_two_saves_in_the_same_second_never_share_a_name(home: Path) -> None:
    a = Session.new(get_game("cabin"), seed=1)
    b = Session.new(get_game("cabin"), seed=2)
    assert a.save_path == b.save_path or a.save_path.parent == b.save_path.parent
    pa, pb = a.save(), b.save()
    assert pa != pb and pa.exists() and pb.exists()
    assert records.load(pa)["setup"] != records.load(pb)["setup"]
    # A session keeps writing to the file it claimed, and never to the other one.
    a.save()
    assert records.load(pb)["note"] == "deal 2"
    wanted = home / "records" / "x.json"
    names = {claim_new_file(wanted) for _ in range(3)}
    assert len(names) == 3


def test_item4_a_save_mid_round_holds_no_bot_choice_of_that_round(tmp_path: Path) -> None:
    session = Session.new(
        get_game("corporation"),
        ["greedy", "human", "greedy", "greedy"],
        seed=1,
        save_path=tmp_path / "c.json",
    )
    assert session.next_bot() is None and session.next_human() == 1
    session.save()
    assert records.load(tmp_path / "c.json")["actions"] == []
    session.apply(1, session.state.legal_actions(1)[0])
    assert session.next_bot() == 0  # now the bots choose
    for seat in (0, 2, 3):
        agent = session.agents[seat]
        assert agent is not None
        session.apply(seat, agent.choose(session.state, seat))
    # Round 2: again nothing of the bots is saved before the person has chosen.
    assert session.next_bot() is None
    session.save()
    lines = records.load(tmp_path / "c.json")["actions"]
    assert len(lines) == 4 and session.state.view(None)["round"] == 2


def test_item5_plain_hot_seat_pushes_the_hand_away_and_resume_hands_over_first(
    tmp_path: Path,
) -> None:
    session = Session.new(
        get_game("corporation"),
        ["human", "human", "greedy", "greedy"],
        seed=2,
        save_path=tmp_path / "h.json",
    )
    out = plain(session, ["1", "", "quit"])
    before_pass = out.split("--- Pass the device to p2")[0]
    assert before_pass.endswith("\n" * BLANK_LINES)
    resumed = Session.resume(records.load(tmp_path / "h.json"), save_path=tmp_path / "h2.json")
    out = plain(resumed, [""])
    first_hand = out.find("your move")
    handover = out.find("--- Pass the device to p2")
    assert handover >= 0 and (first_hand == -1 or handover < first_hand)
    assert out[:handover].strip() == ""  # nothing of anybody's table before it


def test_item1_play_record_with_a_bad_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff{}")
    result = runner.invoke(app, ["play", "--plain", "--record", str(bad)])
    assert result.exit_code == 2 and "error" in result.output
    assert "Traceback" not in result.output
    folder = runner.invoke(app, ["play", "--plain", "--record", str(tmp_path)])
    assert folder.exit_code == 2 and "Traceback" not in folder.output


def test_item1_play_save_to_an_unwritable_path_saves_elsewhere_and_says_where(
    tmp_path: Path, home: Path
) -> None:
    target = tmp_path / "no-such-folder" / "sub"
    target.parent.write_text("a file where a folder should be")
    result = runner.invoke(
        app,
        ["play", "cabin", "--plain", "--seed", "3", "--save", str(target / "g.json")],
        input="1\nquit\n",
        env={"DECKLAB_HOME": str(home)},
    )
    assert result.exit_code == 0, result.output
    assert "could not write" in result.output and "saved to" in result.output
    saved = sorted((home / "records").glob("cabin-*.json"))
    assert len(saved) == 1 and str(saved[0]) in result.output
    assert len(records.load(saved[0])["actions"]) == 1


def test_item1_decklab_home_pointing_at_a_file_is_a_clear_error(tmp_path: Path) -> None:
    afile = tmp_path / "home-file"
    afile.write_text("x")
    result = runner.invoke(
        app, ["play", "cabin", "--plain"], input="quit\n", env={"DECKLAB_HOME": str(afile)}
    )
    assert result.exit_code == 2 and "is a file, not a folder" in result.output
    assert afile.read_text() == "x"
    stats_result = runner.invoke(app, ["stats"], env={"DECKLAB_HOME": str(afile)})
    assert stats_result.exit_code == 2 and "is a file, not a folder" in stats_result.output


def test_item1_stats_with_a_corrupt_database_says_so_and_keeps_the_file(home: Path) -> None:
    data_dir()
    path = stats.stats_path()
    path.write_bytes(b"this is not a database" * 100)
    result = runner.invoke(app, ["stats"], env={"DECKLAB_HOME": str(home)})
    assert result.exit_code == 2 and "cannot be used" in result.output
    assert "Traceback" not in result.output and "--move-aside" in result.output
    assert path.read_bytes().startswith(b"this is not a database")
    as_json = runner.invoke(app, ["stats", "--json"], env={"DECKLAB_HOME": str(home)})
    assert as_json.exit_code == 2 and "error" in json.loads(as_json.output)
    moved = runner.invoke(app, ["stats", "--move-aside"], env={"DECKLAB_HOME": str(home)})
    assert moved.exit_code == 0, moved.output
    aside = list(path.parent.glob("stats.sqlite3.bad-*"))
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not")
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM results").fetchone() == (0,)
    with pytest.raises(StorageError):
        raise StorageError("x")
