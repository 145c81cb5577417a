"""Goofspiel's rules, worked by hand (the classic game: the single highest bid takes the
prize, a shared highest bid discards it, bid cards are spent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from decklab.engine.errors import IllegalAction, OptionError, SetupError
from decklab.engine.registry import get_game
from decklab.engine.state import ALL, GameState


def _game(plugins: Path, players: int, prizes: list[int]) -> GameState:
    cls = get_game("goofspiel")
    return cls.from_setup(players, {"cards": len(prizes)}, {"prizes": prizes})


def test_the_highest_bid_takes_the_prize_and_a_tie_discards_it(plugins: Path) -> None:
    state = _game(plugins, 3, [3, 1, 2])
    assert state.view(0)["prize"] == 3
    for seat, bid in enumerate([3, 2, 1]):
        state.apply(seat, bid)
    assert state.scores() == [3, 0, 0]
    for seat, bid in enumerate([2, 3, 3]):  # p2 and p3 tie on the highest bid
        state.apply(seat, bid)
    assert state.scores() == [3, 0, 0] and state.view(None)["discarded"] == [1]
    assert state.legal_actions(0) == [1] and state.legal_actions(1) == [1]
    for seat, bid in enumerate([1, 1, 2]):
        state.apply(seat, bid)
    assert state.is_terminal() and state.scores() == [3, 0, 2]
    assert state.result()["winners"] == ["p1"]


def test_a_face_down_bid_is_hidden_and_its_card_stays_in_the_public_hand(plugins: Path) -> None:
    state = _game(plugins, 2, [2, 1])
    state.apply(0, 2)
    other = state.view(1)
    assert other["chosen"] == {"p1": True, "p2": False} and "bids" not in other
    assert other["hands"]["p1"] == [1, 2]  # the bid card is not taken out before the reveal
    assert state.view(0)["my_bid"] == 2 and state.view(ALL)["bids"]["p1"] == 2
    with pytest.raises(IllegalAction, match="already bid"):
        state.apply(0, 1)
    assert state.parse_action(1, "bid 1") == 1 and state.parse_action(1, "2") == 2


def test_bad_options_and_setups_are_clear_errors(plugins: Path) -> None:
    cls = get_game("goofspiel")
    with pytest.raises(OptionError, match="for 2–10 players"):
        cls.new(1)
    with pytest.raises(OptionError, match="cards=14 is above the maximum 13"):
        cls.new(2, {"cards": 14})
    with pytest.raises(SetupError, match=r"each value 1…3 once"):
        cls.from_setup(2, {"cards": 3}, {"prizes": [1, 1, 2]})
    assert cls.new(4, {"cards": 5}, seed=1).view(0)["prizes_left"] == 4


def test_goofspiel_is_played_in_the_terminal(plugins: Path, tmp_path: Path) -> None:
    """``decklab play goofspiel --plain``: a person against greedy, the record saved."""
    import json
    import os
    import subprocess
    import sys

    save = tmp_path / "game.json"
    done = subprocess.run(
        [sys.executable, "-m", "decklab.cli", "play", "goofspiel", "--plain", "-p",
         "human,greedy", "-o", "cards=3", "--seed", "1", "--save", str(save)],
        input="bid 3\nbid 2\n1\n", capture_output=True, text=True, timeout=120,
        env=os.environ.copy(),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Goofspiel — round 1 of 3" in done.stdout and "Game over" in done.stdout
    record = json.loads(save.read_text())
    assert record["game"] == "goofspiel" and record["options"] == {"cards": 3}
    assert len(record["actions"]) == 6
