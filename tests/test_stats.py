"""Solo statistics: the SQLite file, the summary, `decklab stats`, and the plain-mode hook."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from decklab.cli import app
from decklab.engine.registry import get_game
from decklab.play import stats

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DECKLAB_HOME", str(tmp_path))
    return tmp_path


def add(deal: int | None, score: float, when: str) -> None:
    stats.record_result("cabin", deal, score, score == 0, {"stacks": 8}, finished=when)


def test_summary_counts_perfect_games_best_average_and_streaks(home: Path) -> None:
    for i, (deal, score) in enumerate([(7, 0), (7, 3), (9, 0), (9, 0), (3, 5), (9, 0), (None, 2)]):
        add(deal, score, f"2026-01-01T00:00:0{i}+00:00")
    s = stats.summary("cabin")
    assert (s.games, s.perfect) == (7, 4)
    assert s.best == 0 and s.average == pytest.approx(10 / 7)
    assert (s.longest_streak, s.current_streak) == (2, 0)
    by_deal = {d.deal: d for d in s.deals}
    assert [d.deal for d in s.deals] == [3, 7, 9, None]
    assert (by_deal[9].games, by_deal[9].perfect, by_deal[9].best) == (3, 3, 0)
    assert (by_deal[7].best, by_deal[7].average) == (0, 1.5)
    assert (home / stats.FILE_NAME).exists()


def test_current_streak_counts_the_latest_perfect_games() -> None:
    for i, score in enumerate([1, 0, 0, 0]):
        add(1, score, f"2026-01-02T00:00:0{i}+00:00")
    s = stats.summary("cabin")
    assert (s.current_streak, s.longest_streak) == (3, 3)


def test_an_empty_summary_and_games_with_others_are_not_kept() -> None:
    assert stats.summary("cabin").games == 0
    state = get_game("corporation").new(4, {"target": 1}, seed=1)
    while not state.is_terminal():
        for seat in state.to_act():
            state.apply(seat, state.legal_actions(seat)[0])
    assert stats.record_game(state, 1) is False
    unfinished = get_game("cabin").new(seed=2)
    assert stats.record_game(unfinished, 2) is False
    assert stats.summary("cabin").games == 0
    assert stats.solo_games() == ["cabin"]


def test_plain_mode_keeps_a_finished_cabin_game_and_stats_prints_it(home: Path) -> None:
    played = runner.invoke(
        app,
        ["play", "cabin", "--deal", "12", "--save", str(home / "g.json")],
        input="1\n" * 300,
        env={"DECKLAB_HOME": str(home)},
    )
    assert played.exit_code == 0, played.output
    assert "Game over" in played.output
    s = stats.summary("cabin")
    assert s.games == 1 and s.deals[0].deal == 12
    out = runner.invoke(app, ["stats", "--json"], env={"DECKLAB_HOME": str(home)})
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["cabin"]["games"] == 1 and data["cabin"]["deals"][0]["deal"] == 12
    text = runner.invoke(app, ["stats", "cabin"], env={"DECKLAB_HOME": str(home), "COLUMNS": "120"})
    assert text.exit_code == 0
    assert "perfect games" in text.output and "longest perfect streak" in text.output
    # Resuming the finished game does not count it twice.
    again = runner.invoke(
        app, ["play", "--record", str(home / "g.json")], input="", env={"DECKLAB_HOME": str(home)}
    )
    assert again.exit_code == 0
    assert stats.summary("cabin").games == 1


def test_stats_with_no_games_says_so() -> None:
    out = runner.invoke(app, ["stats"])
    assert out.exit_code == 0 and "no finished games yet" in out.output


def test_item6_solo_result_names_the_deal_and_the_best_before_this_game(home: Path) -> None:
    import random

    from decklab.play.tui.session import Session

    add(42, 12, "2026-01-01T00:00:00+00:00")
    add(42, 9, "2026-01-02T00:00:00+00:00")
    add(43, 1, "2026-01-03T00:00:00+00:00")
    assert stats.best_on_deal("cabin", 42) == 9 and stats.best_on_deal("cabin", 44) is None
    session = Session.new(get_game("cabin"), seed=42, save_path=home / "c.json")
    rng = random.Random(1)
    while not session.state.is_terminal():
        session.apply(0, rng.choice(session.state.legal_actions(0)))
    score = session.state.scores()[0]
    line = session.result_text()
    assert line.endswith(f"{score:g} squid points — deal 42; your best on this deal: 9.")
    stats.record_game(session.state, 42)  # kept after the line was written: it stays the same
    assert session.result_text() == line
    assert any(r.startswith("p1: ") for r in session.breakdown_lines())
