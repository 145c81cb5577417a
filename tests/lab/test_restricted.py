"""Restricted play: every declared choice pattern is real, and the report pairs and decides."""

from __future__ import annotations

import json
import random
import re

import pytest
from typer.testing import CliRunner

from decklab.cli import app
from decklab.engine.registry import game_names, get_game
from decklab.lab.restricted import Choice, game_choices, run_restricted


@pytest.mark.parametrize("game", game_names())
def test_every_choice_pattern_matches_a_legal_action(game: str) -> None:
    cls = get_game(game)
    choices = game_choices(cls)
    assert choices, f"{game} declares no core choices"
    for choice in choices:
        regex = re.compile(choice.pattern, re.IGNORECASE)
        hit = False
        for seed in range(3):
            state = cls.new(None, choice.options, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal() and not hit:
                seat = state.to_act()[0]
                legal = state.legal_actions(seat)
                hit = any(regex.search(state.action_to_string(seat, a)) for a in legal)
                state.apply(seat, rng.choice(legal))
        assert hit, f"{game}: {choice.name} ({choice.pattern}) matched no legal action"


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
