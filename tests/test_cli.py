"""The decklab command: games, rules, deal, replay, play --plain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from decklab.cli import app
from decklab.engine import records
from decklab.engine.registry import game_names, get_game

RECORDS = Path(__file__).parent / "records"
runner = CliRunner()


def test_games_lists_every_game_with_players_and_options() -> None:
    result = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for name in game_names():
        info = get_game(name).info
        assert name in result.output
        assert info.players_text() in result.output
        for opt in info.options:
            assert opt.name in result.output


@pytest.mark.parametrize("game", game_names())
def test_rules_prints_the_projects_own_rules(game: str) -> None:
    result = runner.invoke(app, ["rules", game])
    assert result.exit_code == 0
    assert get_game(game).info.title.split()[0] in result.output
    assert len(result.output) > 800


def test_rules_of_an_unknown_game_fails_clearly() -> None:
    result = runner.invoke(app, ["rules", "chess"])
    assert result.exit_code == 2
    assert "no game named 'chess'" in result.output


@pytest.mark.parametrize("game", game_names())
def test_deal_prints_a_record_that_replays(game: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["deal", game, "--seed", "5"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["game"] == game and record["actions"] == [] and "setup" in record
    again = runner.invoke(app, ["deal", game, "--deal", "5"])
    assert json.loads(again.output)["setup"] == record["setup"]
    path = tmp_path / "deal.json"
    path.write_text(result.output, encoding="utf-8")
    replayed = runner.invoke(app, ["replay", str(path), "--json", "--legal"])
    assert replayed.exit_code == 0, replayed.output
    out = json.loads(replayed.stdout)  # stderr notes that it shows hidden cards
    assert out["actions_applied"] == 0 and out["terminal"] is False
    assert out["legal"] and all(out["legal"].values())


def test_deal_rejects_bad_options_and_both_seed_and_deal() -> None:
    bad = runner.invoke(app, ["deal", "corporation", "-o", "target=none"])
    assert bad.exit_code == 2 and "target" in bad.output
    both = runner.invoke(app, ["deal", "corporation", "--seed", "1", "--deal", "2"])
    assert both.exit_code == 2 and "not both" in both.output


def test_replay_json_reports_scores_and_winners() -> None:
    result = runner.invoke(app, ["replay", str(RECORDS / "corporation_4p_full.json"), "--json"])
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert out == {
        "game": "corporation",
        "terminal": True,
        "scores": {"p1": 11, "p2": 8, "p3": 3, "p4": 9},
        "winners": ["p1"],
        "actions_applied": 12,
        "to_act": [],
    }


def test_replay_text_shows_state_and_scores() -> None:
    result = runner.invoke(app, ["replay", str(RECORDS / "corporation_p9.json"), "--legal"])
    assert result.exit_code == 0
    assert "p1: 20, p2: 15, p3: 20, p4: 20, p5: 20" in result.output
    assert "legal for p1: play 1" in result.output


def test_replay_of_an_illegal_action_exits_2_with_the_reason() -> None:
    path = str(RECORDS / "corporation_illegal.json")
    text = runner.invoke(app, ["replay", path])
    assert text.exit_code == 2
    assert "action 5 ('p1 play 3')" in text.output and "Traceback" not in text.output
    js = runner.invoke(app, ["replay", path, "--json"])
    assert js.exit_code == 2
    err = json.loads(js.output)["error"]
    assert err["index"] == 5 and err["action"] == "p1 play 3" and "face up" in err["reason"]


def test_replay_of_a_malformed_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"game": "corporation"}', encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 2
    assert "seats" in json.loads(result.output)["error"]["reason"]


def test_play_plain_against_random_rejects_bad_input_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    lines = ["hello", "99", "play 9", "?", "log"] + ["1"] * 400
    result = runner.invoke(
        app,
        [
            "play",
            "corporation",
            "--players",
            "human,random,random,random",
            "--seed",
            "3",
            "--save",
            str(save),
        ],
        input="\n".join(lines) + "\n",
        env={"DECKLAB_HOME": str(tmp_path)},
    )
    assert result.exit_code == 0, result.output
    assert "Not allowed" in result.output
    assert "There is no action 99" in result.output
    assert "Game over" in result.output
    record = records.load(save)
    state, _ = records.replay(record)
    assert state.is_terminal()
    assert record["players"]["p2"] == "random"


def test_item3_plain_quits_and_resumes_without_rewriting_the_file(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = runner.invoke(
        app,
        [
            "play",
            "corporation",
            "-p",
            "human,random,random,random",
            "--seed",
            "4",
            "--save",
            str(save),
        ],
        input="1\n2\nquit\n",
        env={"DECKLAB_HOME": str(tmp_path)},
    )
    assert first.exit_code == 0 and "Saved the game" in first.output
    state, applied = records.replay(records.load(save))
    assert not state.is_terminal() and applied >= 2
    saved_text = save.read_bytes()
    second = runner.invoke(
        app, ["play", "--record", str(save)], input="1\n" * 400, env={"DECKLAB_HOME": str(tmp_path)}
    )
    assert second.exit_code == 0 and "Game over" in second.output
    # Item 3: the resumed game went to a new file; the one opened is as it was.
    assert save.read_bytes() == saved_text
    new_files = sorted((tmp_path / "records").glob("corporation-*.json"))
    assert len(new_files) == 1 and str(new_files[0]) in second.output
    finished = records.load(new_files[0])
    final, more = records.replay(finished)
    assert final.is_terminal() and more > applied
    assert finished["players"] == {"p1": "human", "p2": "random", "p3": "random", "p4": "random"}
    # Looking at the finished game again writes nothing anywhere.
    before = finished_text = new_files[0].read_bytes()
    third = runner.invoke(
        app, ["play", "--record", str(new_files[0])], input="", env={"DECKLAB_HOME": str(tmp_path)}
    )
    assert third.exit_code == 0 and "Game over" in third.output
    assert new_files[0].read_bytes() == before == finished_text
    assert len(list((tmp_path / "records").glob("*.json"))) == 1
    # --overwrite is the way to save back into the file opened.
    fourth = runner.invoke(
        app,
        ["play", "--record", str(save), "--overwrite"],
        input="1\nquit\n",
        env={"DECKLAB_HOME": str(tmp_path)},
    )
    assert fourth.exit_code == 0 and f"Saved the game to {save}" in fourth.output
    assert len(records.load(save)["actions"]) > len(json.loads(saved_text)["actions"])


def test_play_rejects_unknown_agents_and_wrong_seat_counts() -> None:
    bad = runner.invoke(app, ["play", "corporation", "-p", "human,wizard,random,random"])
    assert bad.exit_code == 2 and "no agent named 'wizard'" in bad.output
    few = runner.invoke(app, ["play", "corporation", "-p", "human,random"])
    assert few.exit_code == 2 and "4–10 players" in few.output


def test_play_menu_chooses_a_game(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["play"], input="0\ncorporation\n" + "quit\n", env={"DECKLAB_HOME": str(tmp_path)}
    )
    assert "Choose a game" in result.output and "Type a number" in result.output
    assert "Saved the game" in result.output


ALL_RECORDS = sorted(RECORDS.glob("*.json"))


@pytest.mark.parametrize("path", ALL_RECORDS, ids=[p.stem for p in ALL_RECORDS])
def test_every_hand_written_record_replays_or_fails_cleanly(path: Path) -> None:
    """Records named *illegal* must stop with status 2 and the reason; the rest replay."""
    result = runner.invoke(app, ["replay", str(path), "--json"])
    out = json.loads(result.output)
    if "illegal" in path.stem:
        assert result.exit_code == 2
        assert set(out["error"]) == {"index", "action", "reason"}
        assert out["error"]["reason"] and isinstance(out["error"]["index"], int)
        text = runner.invoke(app, ["replay", str(path)])
        assert text.exit_code == 2 and "Traceback" not in text.output
    else:
        assert result.exit_code == 0, result.output
        assert out["game"] == json.loads(path.read_text(encoding="utf-8"))["game"]
        assert set(out["scores"]) == set(json.loads(path.read_text(encoding="utf-8"))["seats"])


STUDIES = {
    "fairness": ("decklab.lab.fairness", "run_fairness", "render_fairness", ["--players", "4,5"]),
    "restricted": ("decklab.lab.restricted", "run_restricted", "render_restricted", []),
}


@pytest.mark.parametrize("command", list(STUDIES))
def test_the_one_agent_studies_take_the_same_options_to_their_run(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fairness`` and ``restricted`` share one block of options (cli._StudyRun): each
    hands seed, game options, workers and progress to its study alike, prints JSON or a
    table, and says a refused agent in one line (JSON with --json)."""
    module_name, run_name, render_name, extra = STUDIES[command]
    module = __import__(module_name, fromlist=[run_name])
    seen: list[tuple[tuple[object, ...], dict[str, object]]] = []

    class Report:
        def to_json(self) -> str:
            return json.dumps({"study": command})

    def fake_run(*args: object, **kwargs: object) -> Report:
        seen.append((args, kwargs))
        return Report()

    monkeypatch.setattr(module, run_name, fake_run)
    monkeypatch.setattr(module, render_name, lambda report: f"table of {command}")
    base = [command, "corporation", "-p", "random", "-g", "6", *extra]
    shared = ["--seed", "7", "-o", "rounds=3", "-w", "2"]
    result = runner.invoke(app, [*base, *shared, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"study": command}
    args, kwargs = seen[-1]
    assert args == ("corporation", "random", 6)
    assert {k: kwargs[k] for k in ("seed", "options", "workers", "progress")} == {
        "seed": 7,
        "options": {"rounds": "3"},
        "workers": 2,
        "progress": False,  # a JSON document is not interleaved with a progress bar
    }
    result = runner.invoke(app, [*base, "--progress"])
    assert result.exit_code == 0 and f"table of {command}" in result.output
    assert seen[-1][1]["progress"] is True and seen[-1][1]["seed"] == 0
    bad = runner.invoke(app, [command, "corporation", "-p", "human", "--json"])
    assert bad.exit_code == 2 and "bots only" in json.loads(bad.output)["error"]
    bad = runner.invoke(app, [command, "corporation", "-p", "human"])
    assert bad.exit_code == 2 and "bots only" in bad.output and not bad.output.startswith("{")
    assert len(seen) == 2  # a bad agent runs nothing
    for option in ("--seed", "--option", "--workers", "--json", "--progress"):
        assert option in runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).output
