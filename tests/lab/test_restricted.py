"""Restricted play: every declared choice is real, and the report pairs and decides."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from decklab.cli import app
from decklab.engine.registry import game_names, get_game
from decklab.lab.restricted import Choice, RestrictedError, game_choices, run_restricted


@pytest.mark.parametrize("game", game_names())
def test_every_choice_covers_some_legal_actions_and_not_all(game: str) -> None:
    """A choice that covers nothing, or every move of every position, measures nothing."""
    cls = get_game(game)
    choices = game_choices(cls)
    assert choices, f"{game} declares no core choices"
    for choice in choices:
        hit = spared = False
        for seed in range(3):
            state = cls.new(None, choice.options, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal() and not (hit and spared):
                seat = state.to_act()[0]
                legal = state.legal_actions(seat)
                covered = [a for a in legal if choice.covers(state, seat, a)]
                hit = hit or bool(covered)
                spared = spared or 0 < len(covered) < len(legal)
                state.apply(seat, rng.choice(legal))
        assert hit, f"{game}: {choice.name} covered no legal action"
        assert spared, f"{game}: {choice.name} never left another move open"


def _by_name(report: Any) -> dict[str, dict[str, dict[str, Any]]]:
    return {c.choice.name: {d["metric"]: d for d in c.differences} for c in report.choices}


def test_a_choice_that_looks_at_the_position_bars_what_its_text_cannot() -> None:
    """Planted: in Lonely Face a pair is also made by a flip or swap (then taken, L7).

    Barring the text ``take`` leaves those, and the agent loses nothing; the declared
    choice, which looks at what each move does, leaves it no pair and no win.
    """
    by_text = Choice("take moves", r"^take ", "test only")
    (by_position,) = [c for c in game_choices(get_game("lonely-face")) if c.name == "taking pairs"]
    report = run_restricted(
        "lonely-face", "greedy", 80, seed=1, players=2, progress=False,
        choices=[by_position, by_text],
    )  # fmt: skip
    got = _by_name(report)
    wins = got["taking pairs"]["wins"]
    assert wins["deals"] == 40
    assert wins["restricted"] < 0.1 and wins["t_high"] < -0.3
    assert wins["verdict"] == "finding"
    assert got["taking pairs"]["score"]["restricted"] < 1.0  # hardly a pair taken
    assert getattr(by_position, "when", None) is not None  # it looks at the position
    text = got["take moves"]["wins"]
    assert text["restricted"] > 0.3 and text["verdict"] != "finding"


def test_a_position_choice_must_be_declared_to_reach_the_workers() -> None:
    def anything(state: object, seat: int, action: int) -> bool:
        return True

    loose = Choice("anything", when=anything)  # type: ignore[arg-type]
    with pytest.raises(RestrictedError, match="declare it in the game's choices module"):
        run_restricted("corporation", "random", 8, players=4, progress=False, choices=[loose])


def test_position_choices_play_the_same_in_worker_processes() -> None:
    """The agent carries the choice's name; each worker finds the predicate itself."""
    from decklab.lab.choices import find_choice

    cls = get_game("corporation")
    todo = [find_choice(cls, "sticking")]
    one = run_restricted(
        "corporation", "greedy", 64, seed=5, players=4, progress=False, choices=todo
    )
    two = run_restricted(
        "corporation", "greedy", 64, seed=5, players=4, workers=2, progress=False, choices=todo
    )
    assert one.to_dict() == two.to_dict()


def test_command_reports_every_choice_with_an_interval() -> None:
    result = CliRunner().invoke(
        app, ["restricted", "facade", "--games", "8", "--players", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    names = [c.name for c in game_choices(get_game("facade"))]
    assert [c["name"] for c in data["choices"]] == names
    for c in data["choices"]:
        metrics = {d["metric"]: d for d in c["differences"]}
        assert set(metrics) == {"wins", "score"}
        for d in metrics.values():
            assert d["deals"] == 4
            assert d["t_low"] is not None and d["t_low"] <= d["difference"] <= d["t_high"]
            assert "holm_p" in d and "verdict" in d


def test_an_essential_choice_shows_a_clear_difference() -> None:
    # Barring every bid card but the A (worth 1) leaves the agent outbid: it scores less.
    essential = Choice("all but the ace", r"^bid [JQK]", "test only")
    report = run_restricted("facade", "greedy", 64, players=2, progress=False, choices=[essential])
    score = next(d for d in report.choices[0].differences if d["metric"] == "score")
    assert score["deals"] == 32
    assert score["t_high"] < 0
    assert score["verdict"] == "finding"


def test_an_unknown_choice_name_is_refused_before_anything_is_played() -> None:
    result = CliRunner().invoke(app, ["arena", "corporation", "-p", "greedy:never=nope", "-g", "4"])
    assert result.exit_code == 2
    assert "declares no choice 'nope' (its choices: sticking, defecting" in result.output
