"""The search squashes score margins on the scale of its own seat's margins, whatever its number.

A tree's rewards for an unfinished game (``evaluate``) and the margin blended into a
finished one (``with_margin``) are each seat's margin over the best other seat,
squashed by tanh on the mean absolute margin seen so far. That mean was taken over
p1's margins in every tree: at tables of more than two, p1 searched on its own scale
and every other seat on p1's, a search that differed by seat number (issue 20). The
scale is now the searching seat's own. At two seats the margins are opposite, so
nothing changes there.
"""

from __future__ import annotations

import math
import random

import pytest

from decklab.bots import make_agent
from decklab.bots.ismcts import GUIDED
from decklab.bots.search import SearchAgent, Tree, squash
from decklab.engine.registry import get_game
from decklab.engine.state import GameState


def unequal_position(game: str, players: int) -> GameState:
    """A position, well into a greedy game, whose seats' margins differ in size."""
    cls = get_game(game)
    state = cls.new(players, seed=3)
    agent = make_agent("greedy:seed=3")
    for _ in range(4 * players):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        state.apply(seat, agent.choose(state, seat))
    return state


def tree_for(state: GameState, observer: int) -> Tree:
    agent = make_agent(f"ismcts:{','.join(f'{k}={v}' for k, v in GUIDED.items())},seed=1")
    assert isinstance(agent, SearchAgent)  # the expert's search
    rollout, _ = agent.rollout_policy(state, observer)
    return agent.new_tree(rollout, observer)


@pytest.mark.parametrize(("game", "players"), [("notorious", 4), ("corporation", 5)])
def test_each_seats_tree_squashes_on_its_own_margins(game: str, players: int) -> None:
    state = unequal_position(game, players)
    assert not state.is_terminal()
    probe = tree_for(state, 0)
    estimate = probe.estimate(state) if probe.estimate else None
    margins = Tree.margins(state, estimate)
    sizes = {round(abs(m), 9) for m in margins}
    assert len(sizes) > 1, "the seats' margins must differ in size, or the test shows nothing"
    for observer in range(players):
        tree = tree_for(state, observer)
        rewards = tree.evaluate(state.clone())
        own = abs(margins[observer])
        assert tree.cut_sum == pytest.approx(own)
        scale = own or 1.0
        assert rewards == pytest.approx([squash(m, scale) for m in margins])


def test_a_finished_games_margin_is_squashed_on_the_searching_seats_scale() -> None:
    state = unequal_position("notorious", 3)
    cls = type(state)
    rng = random.Random(5)
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    margins = Tree.margins(state)
    for observer in range(3):
        tree = tree_for(cls.new(3, seed=1), observer)
        assert tree.margin > 0.0
        tree.with_margin(state, state.utilities())
        assert tree.margin_sum == pytest.approx(abs(margins[observer]))


def test_at_two_seats_the_scale_is_the_same_from_either_seat() -> None:
    """Why the two-player records stand: the margins are equal and opposite."""
    state = unequal_position("facade", 2)
    margins = Tree.margins(state)
    assert margins[0] == -margins[1] and math.isfinite(margins[0])
