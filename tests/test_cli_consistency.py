"""Items 9 and 10: the command line says the same thing the same way; the record
API hands out copies."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from decklab.cli import app
from decklab.engine import records
from decklab.engine.errors import OptionError
from decklab.engine.registry import game_names, get_game

runner = CliRunner()


# ------------------------------------------------------------------- item 9
def test_item9_bare_decklab_prints_help_and_exits_0() -> None:
    result = runner.invoke(app, [])
    assert result.exit_code == 0
    assert "Usage" in result.output and "replay" in result.output and "redact" in result.output


@pytest.mark.parametrize(
    "value", [1.5, "1.5", 2.25, float("inf"), float("nan"), "inf", "1e3", True, "", "x"]
)
def test_item9_whole_number_options_refuse_fractions_and_non_numbers(value: object) -> None:
    info = get_game("notorious").info
    with pytest.raises(OptionError):
        info.resolve_options(3, {"games": value})


@pytest.mark.parametrize("value", [2, "2", " 2 ", 2.0, "+2"])
def test_item9_whole_number_options_accept_whole_numbers(value: object) -> None:
    assert get_game("notorious").info.resolve_options(3, {"games": value})["games"] == 2


def test_item9_games_one_and_a_half_is_refused_on_the_command_line_and_in_a_record() -> None:
    cli = runner.invoke(app, ["deal", "notorious", "-n", "3", "-o", "games=1.5"])
    assert cli.exit_code == 2 and "whole number" in cli.output
    record = json.loads(runner.invoke(app, ["deal", "notorious", "-n", "3", "--seed", "1"]).stdout)
    record["options"]["games"] = 1.5
    with pytest.raises(records.RecordError, match="whole number"):
        records.replay(record)


def test_item9_arena_refuses_more_agents_than_the_game_allows() -> None:
    result = runner.invoke(app, ["arena", "facade", "-p", "random," * 4 + "random", "-g", "1"])
    assert result.exit_code == 2 and "Façade is for 2–4 players" in result.output


def test_item9_arena_several_agents_at_a_solo_game_still_compare() -> None:
    """A solo game seats one, so several agents each play every deal (a comparison)."""
    result = runner.invoke(
        app, ["arena", "cabin", "-p", "random,greedy", "-g", "2", "--json", "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["agents"] == ["random", "greedy"]


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ("human,", "empty entry"),
        ("random,,random", "empty entry"),
        ("HUMAN", "seats bots only"),
        ("human,random", "seats bots only"),
        ("wizard,random", "no agent named 'wizard'"),
    ],
)
def test_item9_arena_player_list_errors_are_clear(players: str, words: str) -> None:
    result = runner.invoke(app, ["arena", "facade", "-p", players, "-g", "1"])
    assert result.exit_code == 2 and words in result.output, result.output
    assert "Traceback" not in result.output


def test_item9_agent_names_are_case_insensitive() -> None:
    result = runner.invoke(
        app, ["arena", "facade", "-p", "RANDOM,Random:Seed=3", "-g", "2", "--json", "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["agents"] == ["random", "random:Seed=3"]


def test_item9_play_with_upper_case_human_and_a_stray_comma() -> None:
    upper = runner.invoke(
        app,
        ["play", "corporation", "-p", "HUMAN,random,random,random", "--plain", "--seed", "1"],
        input="quit\n",
    )
    assert "no agent named" not in upper.output and "Corporation" in upper.output
    comma = runner.invoke(app, ["play", "corporation", "-p", "human,", "--plain"])
    assert comma.exit_code == 2 and "empty entry" in comma.output


def test_item9_bots_lists_the_shared_search_parameters_once() -> None:
    result = runner.invoke(app, ["bots"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    # "UCB exploration constant" is the help of c=, shared by ismcts, pimc and cheat.
    assert result.output.count("UCB exploration constant") == 1
    assert result.output.count("seed of the agent's own randomness") == 1
    assert "dets=" in result.output and "root=" in result.output  # own parameters stay


# ------------------------------------------------------------------ item 10
@pytest.mark.parametrize("game", game_names())
def test_item10_make_record_hands_out_copies(game: str) -> None:
    cls = get_game(game)
    state = cls.new(None, None, seed=3)
    before_setup = json.dumps(state.initial_setup, sort_keys=True)
    before_options = dict(state.options)
    record = records.make_record(state)
    assert record["setup"] is not state.initial_setup
    assert record["options"] is not state.options

    def vandalise(value: object) -> None:
        if isinstance(value, dict):
            for key in list(value):
                vandalise(value[key])
                value[key] = "??"
        elif isinstance(value, list):
            for item in value:
                vandalise(item)
            value.clear()

    vandalise(record["setup"])
    vandalise(record["options"])
    record["result"]["scores"].clear()
    assert json.dumps(state.initial_setup, sort_keys=True) == before_setup
    assert state.options == before_options
    again = records.make_record(state)
    assert json.dumps(again["setup"], sort_keys=True) == before_setup
    replayed, _ = records.replay(again)
    assert replayed.view(-2) == state.view(-2)


@pytest.mark.parametrize("game", game_names())
def test_item10_editing_the_record_after_replay_does_not_reach_the_state(game: str) -> None:
    record = records.make_record(get_game(game).new(None, None, seed=5))
    state, _ = records.replay(record)
    before = json.dumps(state.initial_setup, sort_keys=True)
    view = state.view(-2)
    for value in record["setup"].values():
        if isinstance(value, list):
            value.clear()
    record["options"].clear()
    assert json.dumps(state.initial_setup, sort_keys=True) == before
    assert state.view(-2) == view
    assert records.make_record(state)["setup"] == json.loads(before)


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["arena", "facade", "-p", "greedy", "--games", "x", "--json"], "--games"),
        (["arena", "facade", "-p", "greedy", "--nope", "--json"], "--nope"),
        (["replay", "--json"], "Missing argument"),
    ],
)
def test_item9_usage_errors_are_json_under_json(
    argv: list[str],
    fragment: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A script reading ``--json`` output gets JSON for a usage error too, exit 2."""
    from decklab.cli import main

    monkeypatch.setattr(sys, "argv", ["decklab", *argv])
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 2
    out = json.loads(capsys.readouterr().out)
    assert fragment in out["error"]


def test_item9_json_after_a_double_dash_is_not_an_option() -> None:
    from decklab.cli import _wants_json

    assert _wants_json(["arena", "--json"]) and not _wants_json(["replay", "--", "--json"])
