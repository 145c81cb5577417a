"""Any numeric metric can be a tuning goal, and a bad request leaves nothing behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from decklab.engine.errors import DecklabError
from decklab.lab import runner
from decklab.lab.tune import Goal, parse_goals, parse_params, tune


def test_an_unknown_goal_is_refused_before_any_round_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[object] = []
    real = runner.run_to_folder
    monkeypatch.setattr(
        "decklab.lab.simulate.run_to_folder",
        lambda *a, **k: played.append(a) or real(*a, **k),
    )
    out = tmp_path / "tune"
    with pytest.raises(DecklabError, match=r"no metric 'nonsense'.*beach_dumps"):
        tune("cabin", ["greedy"], parse_params(["stacks=7,8"]), parse_goals(["nonsense=min"]),
             out, games=4, rounds=1)  # fmt: skip
    assert played == []
    # nothing left behind, so the corrected command runs in the same folder
    assert not (out / "tune.json").exists()
    data = tune("cabin", ["greedy"], parse_params(["stacks=7,8"]), parse_goals(["score=min"]),
                out, games=4, rounds=1)  # fmt: skip
    assert len(data["ranked"]) == 2 and played


def test_score_is_a_goal_and_min_ranks_lower_scores_first(tmp_path: Path) -> None:
    data = tune("cabin", ["greedy"], parse_params(["stacks=5,8"]), parse_goals(["score=min"]),
                tmp_path / "t", games=6, rounds=1, seed=2)  # fmt: skip
    scores = [c["goals"]["score"] for c in data["ranked"]]
    assert scores == sorted(scores)  # fewer squid points first
    assert scores[0] < scores[-1]  # the five-stack game is harder: more squid points


def test_unbounded_goals_keep_their_order() -> None:
    low, high = Goal("score", "min"), Goal("length", "max")
    assert low.score(2.0) > low.score(5.0) > low.score(40.0) > 0.0
    assert high.score(120.0) > high.score(100.0) > 0.5
    assert Goal("shared_wins", "min").score(0.25) == 0.75  # rates keep 1 − value
