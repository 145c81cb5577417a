"""The Cabin's experimental judges (docs/strength/cabin_judges.py, issue 20) read views only.

They are not in the package (no bot plays them), but their measurements are quoted in
docs/strength.md, and a judge that peeked at the hidden order would have measured a
cheat: two states that differ only in hidden cards must get the same values and moves.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from decklab.games.cabin.greedy import greedy_action
from decklab.games.cabin.state import CabinState

SCRIPT = Path(__file__).parent.parent / "docs" / "strength" / "cabin_judges.py"


@pytest.fixture(scope="module")
def judges() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cabin_judges", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["cabin_judges"] = module
    spec.loader.exec_module(module)
    return module


def _view_pairs(count: int) -> list[tuple[CabinState, CabinState]]:
    """Decision points of greedy games, each with a state that has the same view and other
    hidden cards (the first of each pair is the true one)."""
    rng = random.Random(5)
    pairs: list[tuple[CabinState, CabinState]] = []
    for seed in range(4):
        state = CabinState.new(seed=seed)
        while not state.is_terminal() and len(pairs) < count:
            if len(state.legal_actions(0)) > 1 and rng.random() < 0.15:
                other = state.determinize(0, random.Random(seed * 100 + len(pairs)))
                assert other.view(0) == state.view(0)
                pairs.append((state.clone(), other))
            state.apply(0, greedy_action(state, 0, rng))
    assert len(pairs) == count
    assert sum((a.sea, a.cabin) != (b.sea, b.cabin) for a, b in pairs) >= count - 2, (
        "the hidden cards must really differ, or the test shows nothing"
    )
    return pairs


def test_fair_values_never_read_the_hidden_order(judges: ModuleType) -> None:
    for state, other in _view_pairs(6):
        got = judges.fair_values(state, 0, random.Random(2), 2, 1, 2)
        assert got == judges.fair_values(other, 0, random.Random(2), 2, 1, 2)
        assert judges.fair_action(state, 0, random.Random(2), 2, 1, 2) == judges.fair_action(
            other, 0, random.Random(2), 2, 1, 2
        )
        assert set(got) <= set(state.legal_actions(0)) and 1 <= len(got) <= 2


def test_the_rollout_judge_never_reads_the_hidden_order(judges: ModuleType) -> None:
    move: Callable[[CabinState], int] = lambda s: judges.rollout_action(  # noqa: E731
        s, 0, random.Random(3), 2.0, 2, 1
    )
    for state, other in _view_pairs(4):
        assert move(state) == move(other)
        order = judges.candidates(state, 0, random.Random(4), 2.0)
        assert order == judges.candidates(other, 0, random.Random(4), 2.0)
        got = judges.outcomes(state, 0, random.Random(6), order, 2, 1)
        assert got == judges.outcomes(other, 0, random.Random(6), order, 2, 1)


TREE = SCRIPT.parent / "cabin_tree.py"


@pytest.fixture(scope="module")
def tree() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))  # it imports its neighbour cabin_rollout
    spec = importlib.util.spec_from_file_location("cabin_tree", TREE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("shared", [False, True])
def test_the_tree_over_what_the_player_sees_never_reads_the_hidden_order(
    tree: ModuleType, shared: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """cabin_tree.py's search (issue 20's fourth round) keys its nodes by the view and
    samples every deal from the root's view: two states that differ only in hidden
    cards get the same move. It fails if the tree starts from the true state instead of
    a sampled deal, or keys a node by anything the player does not see."""
    monkeypatch.setattr(tree, "SHARED", shared)
    for state, other in _view_pairs(4):
        move = tree.tree_action(state, random.Random(8), 60, 2, 2.0)
        assert move == tree.tree_action(other, random.Random(8), 60, 2, 2.0)
        assert move in state.legal_actions(0)
